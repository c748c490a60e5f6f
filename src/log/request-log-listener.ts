import pino from 'pino';
import { type Exchange } from '../kernel/exchange';
import { defineListener, type Listener } from '../kernel/listener';
import { RedactionPolicy } from '../profiler';
import { escapeControl, escapeControlKeepingLines } from './escape-control';
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

/** One line of the log: secrets redacted as in profiles, every control character shown as `\xHH`. */
function safeText(redaction: RedactionPolicy, text: string): string {
  return escapeControl(redaction.text(text));
}

/**
 * A 5xx's error as pino would serialize it (message, stack, causes), every string redacted and
 * escaped as the rest of the line; the stack keeps its lines. A plain object: pino prints it as is.
 */
function safeError(redaction: RedactionPolicy, error: unknown): unknown {
  const serialized = error instanceof Error ? pino.stdSerializers.err(error) : { message: String(error) };
  const escape = (value: unknown): unknown => {
    if (typeof value === 'string') return escapeControlKeepingLines(redaction.text(value));
    if (Array.isArray(value)) return value.map(escape);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, escape(field)]));
    return value;
  };
  return escape(serialized);
}

function writeRequestLine(logger: Logger, redaction: RedactionPolicy, exchange: Exchange): void {
  const { request, response, aborted, errors, streamed } = exchange;
  const status = exchange.sent && response !== null ? response.status : 0;
  // A streamed body whose source failed is an error of the server's, whatever its status said.
  const failed = streamed?.failed === true;
  const level = failed ? 'error' : levelOf(status, aborted);
  // Nothing is built for a line the level hides.
  if (!logger.isLevelEnabled(level)) return;
  // Until the response was handed over (a streamed body: until its end): kernel.terminate was entered right after.
  const durationMs = Math.round((exchange.trace.lastStateStart ?? exchange.trace.now()) * 10) / 10;
  const token = response?.headers.get('X-Debug-Token');
  const profile = response?.headers.get('X-Debug-Token-Link');
  // The path without its query string, which may carry secrets; a segment may carry one too (`token=…`).
  const method = escapeControl(request.data.method);
  const path = safeText(redaction, request.data.path);
  const cut = streamed === null ? '' : failed ? `, body failed after ${streamed.bytes} bytes` : aborted ? `, body cut after ${streamed.bytes} bytes` : '';
  const outcome = `${aborted ? `aborted after ${durationMs} ms` : `${status} ${durationMs} ms`}${cut}`;
  const fields: Record<string, unknown> = { method, path, status, durationMs };
  if (token !== undefined) fields['token'] = token;
  if (profile !== undefined) fields['profile'] = profile;
  // A 5xx comes with its error's stack (pino's `err`, causes included); a 4xx says why in one line.
  const error = errors.at(-1);
  // Both through the profiles' redaction: a 404's message quotes the Referer, a 5xx's any value.
  if (error !== undefined && (status >= 500 || failed)) fields['err'] = safeError(redaction, error);
  else if (error !== undefined) fields['error'] = safeText(redaction, describeError(error));
  logger[level](fields, `${method} ${path} ${outcome}${profile === undefined ? '' : ` ${profile}`}`);
}

/**
 * One line per request on the terminal log, once the response is on the wire (kernel.terminate,
 * -2048: after the profiler handed its profile over, so the line is not part of the profile):
 * method, path, status, duration and, with the profiler, the profile's URL. What comes from the
 * client or the application (the path, an error's message) goes through `redaction`, the policy
 * profiles go through (the built-in secret names unless given), and has its control characters
 * escaped: a terminal must not run an escape sequence a client sent, nor show a secret a profile hides.
 */
export function createRequestLogListener(logger: Logger, redaction: RedactionPolicy = new RedactionPolicy()): Listener {
  return defineListener('RequestLogListener', {
    'kernel.terminate': [-2048, ({ exchange }) => writeRequestLine(logger, redaction, exchange)],
  });
}
