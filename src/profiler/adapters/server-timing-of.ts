import { IO_METRICS, serverTimingMetric } from '../../http/server-timing-text';
import { OPEN_SPAN, type Trace } from '../../kernel/trace';

/**
 * The `Server-Timing` value (https://www.w3.org/TR/server-timing/) of a request of another
 * server, about to be answered: the states its adapter entered (`middleware`, `handler`…),
 * each name once with its durations added, the handler's own name as the description of its
 * state, the application's SQL (`db`), outgoing HTTP (`http`) and Redis (`cache`) time where
 * it had any, and the total. Loupe's kernel writes its own phases (serverTimingHeader); the
 * states of a foreign server are whatever its adapter names them. Made on every profiled
 * response: one pass over the spans.
 */
export function serverTimingOf(trace: Trace): string {
  const now = trace.now();
  const { spans } = trace;
  const states = new Map<string, number>();
  let handlers: Map<string, string> | null = null;
  let io: Map<string, number> | null = null;
  for (const span of spans) {
    const duration = span.duration === OPEN_SPAN ? now - span.start : span.duration;
    if (span.depth === 0) {
      states.set(span.name, (states.get(span.name) ?? 0) + duration);
      continue;
    }
    const parent = spans[span.parent];
    if (span.category === 'controller' && parent !== undefined) {
      handlers ??= new Map();
      if (!handlers.has(parent.name)) handlers.set(parent.name, span.name);
    }
    // A call inside another of its kind (an HTTP client retrying) is counted in the outer one.
    else if (parent?.category !== span.category) {
      io ??= new Map();
      io.set(span.category, (io.get(span.category) ?? 0) + duration);
    }
  }
  let header = '';
  for (const [name, total] of states) header += `${serverTimingMetric(name, total, handlers?.get(name))}, `;
  if (io !== null) {
    for (const [category, description] of IO_METRICS) {
      const total = io.get(category);
      if (total !== undefined) header += `${serverTimingMetric(category, total, description)}, `;
    }
  }
  return `${header}${serverTimingMetric('total', now)}`;
}
