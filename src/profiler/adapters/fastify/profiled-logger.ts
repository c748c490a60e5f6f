import { format } from 'node:util';
import { type ProfiledRequest } from '../../core/profiled-request';
import { type LogLevel } from '../../../kernel/trace';

/** pino's levels, as the Logs panel names them (PSR-3). */
const LEVELS: Readonly<Record<string, LogLevel>> = { trace: 'debug', debug: 'debug', info: 'info', warn: 'warning', error: 'error', fatal: 'critical' };

/** The message and context of a pino call: `(message, ...values)`, `(object, message?, ...values)` or `(error, message?)`. */
function entryOf(args: readonly unknown[]): { message: string; context: Record<string, unknown> } {
  const [first, ...rest] = args;
  // util.format gives a lone string back as it is: a line without values (Fastify's own) skips it.
  if (typeof first === 'string') return { message: rest.length === 0 ? first : format(first, ...rest), context: {} };
  const [second, ...values] = rest;
  const message = typeof second === 'string' ? format(second, ...values) : '';
  if (first instanceof Error) return { message: message === '' ? first.message : message, context: { err: { type: first.name, message: first.message } } };
  return { message, context: typeof first === 'object' && first !== null ? { ...first } : {} };
}

/**
 * `logger` (Fastify's `request.log`, a pino child) that also writes each line it is given into
 * the request's Logs panel, whatever level the application's logger prints (a disabled logger
 * included): the application's log is unchanged, and nothing global is touched.
 */
export function profiledLogger<TLogger extends object>(logger: TLogger, request: ProfiledRequest): TLogger {
  const wrapped = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(logger, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      const level = typeof property === 'string' ? LEVELS[property] : undefined;
      if (level === undefined || typeof value !== 'function' || typeof property !== 'string') return value;
      let method = wrapped.get(property);
      if (method === undefined) {
        method = (...args: unknown[]): unknown => {
          const { message, context } = entryOf(args);
          request.log(level, message, context);
          return Reflect.apply(value, target, args);
        };
        wrapped.set(property, method);
      }
      return method;
    },
  });
}
