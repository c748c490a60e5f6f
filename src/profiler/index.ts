/**
 * The profiler's entry: the only module of `src/profiler/` the rest of Loupe imports (a
 * dependency rule checks it). The plugin and its commands are loaded when asked for, not when
 * this module is: an application without debug loads none of the profiler.
 */
import { type CliCommand } from '../cli/command';
import { type LoupePlugin } from '../loupe/plugin';
import { type ProfilerPluginOptions } from './profiler-plugin';

export { type ProfilerPluginOptions } from './profiler-plugin';
export { type Profiler, type ProfilerStats } from './profiler';
export { type ProfileCollector } from './collector';
export { RedactionPolicy, type RedactionOptions } from './collect/redaction-policy';
export { type PanelDefinition, type PanelContext, type PanelBadge } from './ui/panel/panel-definition';
export { type ChildProfile } from './ui/panel/load-profile';
export { type EditorLink } from './ui/panel/editor-link';
export { type SourcePosition, type SourceReader, type SourceExcerpt } from '../view/read-source-excerpts';
export { type ToolbarItem } from './ui/toolbar/toolbar-item';
export { type Profile, type CollectorEntry, type ProfileCut, type ProfileSummary } from './profile';
export { ProfilerPaths, profilePath } from './profiler-paths';
export { CAPTURE_KINDS, CAPTURE_LIBRARIES, PROFILE_VERSION, PROFILER_DEFAULTS, type CaptureKind, type CaptureLibrary, type CaptureName, type ProfilerConfig, type ProfilerConfigInput, type ProfileVersion } from './profiler-config';
export { readProfilerConfig, resolveProfilerConfig } from './read-profiler-config';
export { type ExplainConfig, type ExplainDatabase, type ExplainDialect } from './explain/explain-config';
export { checkProfilerParts } from './check-profiler-parts';

/** The profiler as a plugin (createLoupe adds it with debug on). */
export function profilerPlugin(options: ProfilerPluginOptions): LoupePlugin {
  const { createProfilerPlugin } = require('./profiler-plugin') as typeof import('./profiler-plugin');
  return createProfilerPlugin(options);
}

/** The profiler's commands of `loupe` (profiler:list, show, tail, diff, check, explain, purge, serve, and mcp). */
export function profilerCommands(): readonly CliCommand[] {
  return (require('./profiler-commands') as typeof import('./profiler-commands')).PROFILER_COMMANDS;
}
