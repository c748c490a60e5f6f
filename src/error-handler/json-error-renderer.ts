import { type ErrorStatus, type FlatError } from './flatten-error';
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

/** The problem document without debug: the status alone, its text as the detail. */
export function publicProblem(status: ErrorStatus): ProblemDetails {
  return { type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: status.statusCode, detail: status.statusText };
}

/** The problem document of an error; the class, trace and causes only in debug. */
export function renderJsonError(flat: FlatError, options: JsonErrorOptions): ProblemDetails {
  const problem = publicProblem(flat);
  if (!options.debug) return problem;
  return {
    ...problem,
    detail: flat.message,
    class: flat.class,
    trace: flat.trace,
    previous: flat.previous.map(({ class: cls, message, trace }) => ({ class: cls, message, trace })),
  };
}
