import { type ProfileCollector } from '../collector';
import { eventsCollector } from './events-collector';
import { exceptionCollector } from './exception-collector';
import { logsCollector } from './logs-collector';
import { machineCollector } from './machine-collector';
import { memoryCollector } from './memory-collector';
import { createRequestCollector, type RequestCollectorOptions } from './request-collector';
import { routerCollector } from './router-collector';
import { timelineCollector } from './timeline-collector';

/** Loupe's own collectors, one per default panel and memory (the toolbar's); an application adds its own after them. */
export function defaultCollectors(options: RequestCollectorOptions): ProfileCollector[] {
  return [createRequestCollector(options), exceptionCollector, logsCollector, eventsCollector, routerCollector, machineCollector, timelineCollector, memoryCollector];
}
