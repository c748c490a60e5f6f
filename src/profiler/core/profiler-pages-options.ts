import { type RedisConfig } from '../../redis/redis-config';
import { createSourceFiles } from '../../view/source-files';
import { type ProfilerConfig } from '../profiler-config';
import { createEditorLink } from '../ui/panel/editor-link';
import { profilerSettings } from '../ui/panel/profiler-settings';
import { type ProfilerPagesOptions } from './profiler-pages';

/** What the pages read that depends on who serves them: a profiling process, or one that only reads (`loupe profiler:serve`). */
export type ProfileReading = Pick<ProfilerPagesOptions, 'storage' | 'isStorageConnected' | 'stats' | 'droppedReason' | 'panels'>;

/**
 * The options of the profiler's pages from the settings read (REDIS_*, PROFILER_*): the source
 * files and editor links of PROFILER_SOURCE_ROOT and PROFILER_IDE, the configuration the status
 * page shows (no Redis: profiles kept in memory), and the access rule, with `reading` for where profiles come from. A started
 * profiler and `loupe profiler:serve` build their pages with it, so both answer alike.
 */
export function profilerPagesOptions(config: { readonly redis: RedisConfig | null; readonly profiler: ProfilerConfig }, reading: ProfileReading): ProfilerPagesOptions {
  const sources = createSourceFiles(config.profiler.sourceRoot ?? process.cwd());
  return {
    ...reading,
    editorLink: createEditorLink(config.profiler.ide, sources),
    sources,
    settings: profilerSettings(config.redis, config.profiler),
    explain: config.profiler.explain,
    allowedIps: config.profiler.allowedIps,
    allowedHosts: config.profiler.allowedHosts,
  };
}
