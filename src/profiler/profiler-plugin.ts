import { type Config } from '../config/config';
import { createIpRangeMatcher } from '../http/ip-range-matcher';
import { type LoupePlugin } from '../loupe/plugin';
import { startAppIoCapture } from './app-io/start-app-io-capture';
import { checkProfilerParts } from './check-profiler-parts';
import { defaultCollectors } from './collect/collectors/default-collectors';
import { createLiveSocketRoute } from './ui/live/live-socket';
import { createEditorLink } from './ui/panel/editor-link';
import { createSourceFiles } from '../view/source-files';
import { DEFAULT_PANELS } from './ui/panel/panel-registry';
import { createProfilerRoutes } from './ui/panel/profiler-routes';
import { profilerSettings } from './ui/panel/profiler-settings';
import { createMemoryProfiler } from './memory-profiler';
import { type Profiler } from './profiler';
import { MEMORY_RETENTION_DEFAULTS, type ProfilerConfigInput } from './profiler-config';
import { resolveProfilerConfig } from './read-profiler-config';
import { createProfilerAccessListener } from './ui/profiler-access-listener';
import { createWebDebugToolbarListener } from './ui/web-debug-toolbar-listener';
import { WorkerLink } from '../server/workers/worker-link';

export interface ProfilerPluginOptions {
  readonly config: Config;
  /** The profiler's settings given in code, each over its PROFILER_* variable of `config.env`. */
  readonly settings?: ProfilerConfigInput;
  /** Told the profiler once it started: its storage, writer and counters (Loupe.profiler). */
  readonly onStart?: (profiler: Profiler) => void;
}

/**
 * The profiler, as one plugin that owns its parts (WebProfilerBundle): its collectors and panels,
 * its CLI commands, and once started its storage, writer and token allocator, the listeners that
 * give tokens and store profiles, the access rule, the web debug toolbar, the `/_profiler` and
 * `/_wdt` routes, the live feed's WebSocket and the capture of the application's I/O.
 */
export function createProfilerPlugin({ config, settings: given = {}, onStart }: ProfilerPluginOptions): LoupePlugin {
  // The profiler's own part of the configuration: what the application gave in code, else the
  // environment the application's configuration was read from;
  // without Redis profiles are kept in memory, as the adapters keep them, with memory's retention.
  const settings = resolveProfilerConfig(given, config.env, config.redis === null ? MEMORY_RETENTION_DEFAULTS : undefined);
  const secretCookies = new Set([config.session.cookieName, config.security.rememberMeCookieName]);
  // Checked now: an invalid PROFILER_ALLOWED_IPS fails before anything is opened.
  const accessListener = createProfilerAccessListener(settings.allowedIps, settings.allowedHosts);
  return {
    name: 'profiler',
    collectors: defaultCollectors({ secretCookies, slowMs: settings.slowCallMs }),
    panels: DEFAULT_PANELS,
    // Loaded when a CLI asks: the commands read Redis, and an application without it loads no Redis client.
    get commands() {
      return (require('./profiler-commands') as typeof import('./profiler-commands')).PROFILER_COMMANDS;
    },
    start: async ({ redis, logger, collectors, panels, toolbarItems }) => {
      const parts = checkProfilerParts({ collectors, panels });
      const log = (line: string): void => logger.warn(line);
      let profiler: Profiler;
      let isStorageConnected: () => boolean;
      if (config.redis === null || redis === null) {
        profiler = createMemoryProfiler(settings, parts, log);
        isStorageConnected = () => true;
      } else {
        // Loaded only for Redis: an application without it loads no Redis client.
        const { createProfiler } = require('./profiler') as typeof import('./profiler');
        profiler = await createProfiler({ redis: config.redis, profiler: settings }, redis, parts, log);
        isStorageConnected = () => redis.status === 'ready';
      }
      onStart?.(profiler);
      // The application's SQL, HTTP calls and Redis commands are told apart by the request context.
      const stopCapture = config.requestContext ? startAppIoCapture(settings.capture) : () => {};
      if (!config.requestContext && settings.capture.length > 0) {
        // Without it no call can be told to its request: say so rather than show empty panels.
        log(`REQUEST_CONTEXT=0: the application's SQL, HTTP calls and Redis commands are not captured (PROFILER_CAPTURE=${settings.capture.join(',')}); set REQUEST_CONTEXT=1, or PROFILER_CAPTURE=none to capture nothing and not be told.`);
      }
      const sources = createSourceFiles(settings.sourceRoot ?? process.cwd());
      const routes = createProfilerRoutes({
        storage: profiler.storage,
        isStorageConnected,
        stats: () => profiler.stats(),
        droppedReason: (token) => profiler.writer.droppedReason(token),
        panels: profiler.panels,
        workers: () => WorkerLink.current(),
        editorLink: createEditorLink(settings.ide, sources),
        sources,
        toolbarItems,
        settings: profilerSettings(config.redis, settings),
        explain: settings.explain,
      });
      return {
        listeners: [accessListener, ...profiler.listeners, createWebDebugToolbarListener(settings.allowedIps)],
        routes,
        recordLimit: settings.maxEntries,
        webSockets: [createLiveSocketRoute(profiler.live, createIpRangeMatcher(settings.allowedIps), settings.allowedHosts)],
        close: async () => {
          stopCapture();
          await profiler.close();
        },
      };
    },
  };
}
