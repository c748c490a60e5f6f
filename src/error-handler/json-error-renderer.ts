import { type ErrorStatus, type FlatError } from './flatten-error';
import { type StackFrame } from './parse-stack';

/** An RFC 7807 problem document, as Symfony's ProblemNormalizer writes it for an error. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** The message in debug; without debug only the status text. */
  readonly detail: string;
  /** The error's code: Loupe's (`LOUPE_ERR_…`) in debug, an application's own where its HttpError exposes it. */
  readonly code?: string;
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
  const problem = { type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: status.statusCode, detail: status.statusText };
  const { exposed } = status;
  if (exposed === undefined) return problem;
  return Object.assign(problem, { detail: exposed.message }, exposed.code === null ? {} : { code: exposed.code });
}

/** The problem document of an error; the class, trace and causes only in debug. */
export function renderJsonError(flat: FlatError, options: JsonErrorOptions): ProblemDetails {
  const problem = publicProblem(flat);
  if (!options.debug) return problem;
  return {
    ...problem,
    detail: flat.message,
    ...(flat.code === null ? {} : { code: flat.code }),
    class: flat.class,
    trace: flat.trace,
    previous: flat.previous.map(({ class: cls, message, trace }) => ({ class: cls, message, trace })),
  };
}
