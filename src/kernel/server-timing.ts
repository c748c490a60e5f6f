import { IO_METRICS, serverTimingMetric } from '../http/server-timing-text';
import { OPEN_SPAN, type SpanRecord, type Trace } from './trace';

type IoCategory = (typeof IO_METRICS)[number][0];

function isIoCategory(category: string): category is IoCategory {
  return IO_METRICS.some(([name]) => name === category);
}

/**
 * The `Server-Timing` value of a request about to be written (https://www.w3.org/TR/server-timing/):
 * the kernel phases so far, each name once with its durations added, the controller, the error
 * sub-request, the session's storage work, the application's SQL (`db`), outgoing HTTP (`http`)
 * and Redis (`cache`) time where it had any, and the total. Browsers show it in their network panel.
 * The I/O metrics add up the calls' own durations: calls running in parallel count each.
 */
export function serverTimingHeader(trace: Trace): string {
  const now = trace.now();
  const duration = (span: SpanRecord): number => (span.duration === OPEN_SPAN ? now - span.start : span.duration);
  const phases = new Map<string, number>();
  let controller = 0;
  let controllerName = '';
  let session = 0;
  const io: Record<IoCategory, number> = { db: 0, http: 0, cache: 0 };
  for (const span of trace.spans) {
    if (span.depth === 0) {
      // The states the machine passes through on its own (received) cost next to nothing: total holds them.
      if (span.name.startsWith('kernel.') || span.name === 'error_sub_request') phases.set(span.name, (phases.get(span.name) ?? 0) + duration(span));
    } else if (span.category === 'controller') {
      controller += duration(span);
      controllerName ||= span.name;
    } else if (span.category === 'session' && trace.spans[span.parent]?.category !== 'session') {
      session += duration(span);
    } else if (isIoCategory(span.category) && trace.spans[span.parent]?.category !== span.category) {
      // A call inside another of its kind (an HTTP client retrying) is counted in the outer one.
      io[span.category] += duration(span);
    }
  }
  const metrics: string[] = [];
  for (const [name, total] of phases) {
    if (name === 'error_sub_request') metrics.push(serverTimingMetric('sub_request', total, 'error sub-request'));
    else metrics.push(serverTimingMetric(name, total));
    if (name === 'kernel.controller_arguments' && controllerName !== '') metrics.push(serverTimingMetric('controller', controller, controllerName));
  }
  if (session > 0) metrics.push(serverTimingMetric('session', session, 'session load and save'));
  for (const [category, description] of IO_METRICS) {
    if (io[category] > 0) metrics.push(serverTimingMetric(category, io[category], description));
  }
  metrics.push(serverTimingMetric('total', now));
  return metrics.join(', ');
}
