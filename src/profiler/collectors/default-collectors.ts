import { type ProfileCollector } from '../collector';
import { exceptionCollector } from './exception-collector';
import { logsCollector } from './logs-collector';
import { memoryCollector } from './memory-collector';
import { createRequestCollector, type RequestCollectorOptions } from './request-collector';
import { routerCollector } from './router-collector';
import { timelineCollector } from './timeline-collector';

/**
 * Loupe's own collectors (the Events and State machine panels read the timeline's, memory is the
 * toolbar's); an application adds its own after them.
 */
export function defaultCollectors(options: RequestCollectorOptions): ProfileCollector[] {
  return [createRequestCollector(options), exceptionCollector, logsCollector, routerCollector, timelineCollector, memoryCollector];
}
