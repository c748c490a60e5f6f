import { type Exchange } from '../kernel/exchange';
import { defineListener, type Listener } from '../kernel/listener';
import { type Logger } from './logger';

/** The fields of the request line besides its message (the pretty format shows only the message). */
export const REQUEST_LINE_FIELDS = ['method', 'path', 'status', 'durationMs', 'token', 'profile'] as const;

/** 5xx are errors, 4xx and abandoned requests warnings, the rest information. */
function levelOf(status: number, aborted: boolean): 'error' | 'warn' | 'info' {
  if (status >= 500) return 'error';
  return status >= 400 || aborted ? 'warn' : 'info';
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function writeRequestLine(logger: Logger, exchange: Exchange): void {
  const { request, response, aborted, errors } = exchange;
  const status = exchange.sent && response !== null ? response.status : 0;
  const level = levelOf(status, aborted);
  // Nothing is built for a line the level hides.
  if (!logger.isLevelEnabled(level)) return;
  // Until the response was handed over: kernel.terminate was entered right after.
  const durationMs = Math.round((exchange.trace.states.at(-1)?.start ?? exchange.trace.now()) * 10) / 10;
  const token = response?.headers.get('X-Debug-Token');
  const profile = response?.headers.get('X-Debug-Token-Link');
  // The path without its query string, which may carry secrets.
  const { method, path } = request.data;
  const outcome = aborted ? `aborted after ${durationMs} ms` : `${status} ${durationMs} ms`;
  const fields: Record<string, unknown> = { method, path, status, durationMs };
  if (token !== undefined) fields['token'] = token;
  if (profile !== undefined) fields['profile'] = profile;
  // A 5xx comes with its error's stack (pino's `err`, causes included); a 4xx says why in one line.
  const error = errors.at(-1);
  if (error !== undefined && status >= 500) fields['err'] = error;
  else if (error !== undefined) fields['error'] = describeError(error);
  logger[level](fields, `${method} ${path} ${outcome}${profile === undefined ? '' : ` ${profile}`}`);
}

/**
 * One line per request on the terminal log, once the response is on the wire (kernel.terminate,
 * -2048: after the profiler handed its profile over, so the line is not part of the profile):
 * method, path, status, duration and, with the profiler, the profile's URL.
 */
export function createRequestLogListener(logger: Logger): Listener {
  return defineListener('RequestLogListener', {
    'kernel.terminate': [-2048, ({ exchange }) => writeRequestLine(logger, exchange)],
  });
}
