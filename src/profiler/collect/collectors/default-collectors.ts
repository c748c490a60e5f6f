import { type ProfileCollector } from '../../collector';
import { PROFILER_DEFAULTS } from '../../profiler-config';
import { createDatabaseCollector, createHttpClientCollector, createRedisCollector, type AppIoCollectorOptions } from './app-io-collectors';
import { exceptionCollector } from './exception-collector';
import { logsCollector } from './logs-collector';
import { createMemoryCollector } from './memory-collector';
import { createRequestCollector, type RequestCollectorOptions } from './request-collector';
import { routerCollector } from './router-collector';
import { timelineCollector } from './timeline-collector';

/**
 * Loupe's own collectors (the Events and State machine panels read the timeline's, memory is the
 * toolbar's), then those of the application's captured I/O (SQL, HTTP calls, Redis commands);
 * an application adds its own after them.
 */
export function defaultCollectors(options: RequestCollectorOptions & Partial<AppIoCollectorOptions>): ProfileCollector[] {
  const appIo = { slowMs: options.slowMs ?? PROFILER_DEFAULTS.slowCallMs };
  return [
    createRequestCollector(options),
    exceptionCollector,
    logsCollector,
    routerCollector,
    timelineCollector,
    createMemoryCollector(),
    createDatabaseCollector(appIo),
    createHttpClientCollector(appIo),
    createRedisCollector(appIo),
  ];
}
