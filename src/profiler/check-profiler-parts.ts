import { LoupeError } from '../errors/loupe-error';
import { type ProfileCollector } from './collector';
import { type PanelDefinition } from './ui/panel/panel-definition';

/** What a profiler records and shows: its collectors, and the panels that read them. */
export interface ProfilerParts {
  readonly collectors: readonly ProfileCollector[];
  readonly panels: readonly PanelDefinition[];
}

/** Names travel in JSON keys and in `?panel=` links unencoded: plain characters only. */
const NAME = /^[A-Za-z0-9_.-]+$/;

function invalid(message: string): LoupeError {
  return new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid profiler extension: ${message}.`);
}

function checkNames(kind: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!NAME.test(name)) throw invalid(`the ${kind} name "${name}" may hold only letters, digits, "_", "." and "-"`);
    if (seen.has(name)) throw invalid(`two ${kind}s are named "${name}"`);
    seen.add(name);
  }
}

/**
 * Checks once, at start, that collector and panel names are unique and plain, and that every
 * panel reads a registered collector: a mistake fails the start, not every profile page.
 * Answers the parts, frozen.
 */
export function checkProfilerParts(parts: ProfilerParts): ProfilerParts {
  checkNames('collector', parts.collectors.map((collector) => collector.name));
  checkNames('panel', parts.panels.map((panel) => panel.name));
  const collectors = new Set(parts.collectors.map((collector) => collector.name));
  const orphan = parts.panels.find((panel) => !collectors.has(panel.collector));
  if (orphan !== undefined) throw invalid(`the panel "${orphan.name}" reads the collector "${orphan.collector}", which is not registered`);
  return Object.freeze({ collectors: Object.freeze([...parts.collectors]), panels: Object.freeze([...parts.panels]) });
}
