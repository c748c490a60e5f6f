import { type FlatError } from './flatten-error';
import { type StackFrame } from './parse-stack';

/** An RFC 7807 problem document, as Symfony's ProblemNormalizer writes it for an error. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** The message in debug; without debug only the status text. */
  readonly detail: string;
  readonly class?: string;
  readonly trace?: readonly StackFrame[];
  readonly previous?: readonly { readonly class: string; readonly message: string; readonly trace: readonly StackFrame[] }[];
}

export interface JsonErrorOptions {
  /** Adds `class`, `trace` and `previous`, and the real message as `detail`. */
  readonly debug: boolean;
}

/** The problem document of an error; the class, trace and causes only in debug. */
export function renderJsonError(flat: FlatError, options: JsonErrorOptions): ProblemDetails {
  const problem = {
    type: 'https://tools.ietf.org/html/rfc2616#section-10',
    title: 'An error occurred',
    status: flat.statusCode,
    detail: options.debug ? flat.message : flat.statusText,
  };
  if (!options.debug) return problem;
  return {
    ...problem,
    class: flat.class,
    trace: flat.trace,
    previous: flat.previous.map(({ class: cls, message, trace }) => ({ class: cls, message, trace })),
  };
}
