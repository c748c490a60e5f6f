import { OPEN_SPAN, type SpanRecord, type Trace } from './trace';

const NEEDS_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/;

/** A quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, anything outside visible ASCII replaced. */
function quoted(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return `"${text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"`;
}

/** A metric; the description only where the name does not say it all, to keep the header short. */
function metric(name: string, duration: number, description?: string): string {
  // toFixed: printing the shortest form of a double costs several times more, on every response.
  const dur = `${name};dur=${duration.toFixed(3)}`;
  return description === undefined ? dur : `${dur};desc=${quoted(description)}`;
}

/**
 * The `Server-Timing` value of a request about to be written (https://www.w3.org/TR/server-timing/):
 * the kernel phases so far, each name once with its durations added, the controller, the error
 * sub-request, the session's storage work, and the total. Browsers show it in their network panel.
 */
export function serverTimingHeader(trace: Trace): string {
  const now = trace.now();
  const duration = (span: SpanRecord): number => (span.duration === OPEN_SPAN ? now - span.start : span.duration);
  const phases = new Map<string, number>();
  let controller = 0;
  let controllerName = '';
  let session = 0;
  for (const span of trace.spans) {
    if (span.depth === 0) {
      // The states the machine passes through on its own (received) cost next to nothing: total holds them.
      if (span.name.startsWith('kernel.') || span.name === 'error_sub_request') phases.set(span.name, (phases.get(span.name) ?? 0) + duration(span));
    } else if (span.category === 'controller') {
      controller += duration(span);
      controllerName ||= span.name;
    } else if (span.category === 'session' && trace.spans[span.parent]?.category !== 'session') {
      session += duration(span);
    }
  }
  const metrics: string[] = [];
  for (const [name, total] of phases) {
    if (name === 'error_sub_request') metrics.push(metric('sub_request', total, 'error sub-request'));
    else metrics.push(metric(name, total));
    if (name === 'kernel.controller_arguments' && controllerName !== '') metrics.push(metric('controller', controller, controllerName));
  }
  if (session > 0) metrics.push(metric('session', session, 'session load and save'));
  metrics.push(metric('total', now));
  return metrics.join(', ');
}
