import { LoupeRequest } from '../../http/request';
import { type LoupeResponse } from '../../http/response';
import { Attributes } from '../../kernel/attributes';
import { type CollectedRequest } from '../../kernel/collected-request';
import { type Controller } from '../../kernel/controller';
import { requestContext, type CurrentRequest } from '../../kernel/request-context';
import { RequestRecords, type RecordedEntries } from '../../kernel/request-records';
import { type SpanCategory, type Stopwatch } from '../../kernel/stopwatch';
import { Trace, type LogLevel } from '../../kernel/trace';
import { requestDataOf, responseOf, type RequestStart, type ResponseEnd } from './request-start';

/** What a ProfiledRequest asks of the profiler that started it: a token for its response, and its profile stored. */
export interface ProfiledRequestOwner {
  issueToken(request: CollectedRequest, status: number): string | null;
  finish(request: CollectedRequest, profile: { readonly token: string; readonly parent: string | null; readonly children: readonly string[] }): void;
}

/** The name of the first state of a request whose server names none. */
const FIRST_STATE = 'request';

/** A controller that stands for the handler a server ran: the profile shows its name. */
function handlerNamed(name: string): Controller {
  return { name, handle: () => undefined };
}

/**
 * One request of any server, as the profiler records it (the handle `profiler.startRequest()`
 * answers): its states (the server's lifecycle: hooks, middleware, the handler), spans, log,
 * the calls captured into it, its errors, the route and handler that served it, and at the end
 * its response. Code run through `run()` finds it as `currentRequest()`, so the application's
 * SQL, HTTP calls and Redis commands are recorded into it. It is read by the same collectors as a
 * request of Loupe's kernel, and makes the same profile.
 */
export class ProfiledRequest implements CollectedRequest, CurrentRequest {
  readonly request: LoupeRequest;
  readonly trace = new Trace(true);
  readonly attributes = new Attributes();
  readonly errors: unknown[] = [];
  readonly parent: CollectedRequest | null = null;
  readonly subRequest: CollectedRequest | null = null;
  readonly renderedError: unknown = null;
  response: LoupeResponse | null = null;
  controller: Controller | null = null;
  aborted = false;
  sent = false;
  readonly #owner: ProfiledRequestOwner;
  readonly #records: RequestRecords;
  #token: string | null | undefined;
  #ended = false;

  /** @internal Made by the profiler's `startRequest`. */
  constructor(start: RequestStart, owner: ProfiledRequestOwner, recordLimit: number) {
    this.request = new LoupeRequest(requestDataOf(start), 'en');
    this.#owner = owner;
    this.#records = new RequestRecords(recordLimit);
    this.trace.enter(FIRST_STATE);
  }

  get stopwatch(): Stopwatch {
    return this.trace;
  }

  /** The profile's token once `respond` gave one, else `null`. */
  get token(): string | null {
    return this.#token ?? null;
  }

  /** Runs `fn` as this request's code: `currentRequest()` answers this request in it and in all it awaits or calls. */
  run<T>(fn: () => T): T {
    return requestContext.run(this, fn);
  }

  /** Enters a state of the server's lifecycle (a hook, a middleware, the handler), which ends the one before: the State machine and Performance panels show them. */
  enter(state: string): void {
    if (!this.#ended) this.trace.enter(state);
  }

  /** The route that matched (its name or pattern, e.g. `GET /users/:id`) and, where known, the handler's name. */
  setRoute(route: string, handler?: string): void {
    this.request.attributes.set('_route', route);
    if (handler !== undefined) {
      this.request.attributes.set('_controller', handler);
      this.controller = handlerNamed(handler);
    }
  }

  /** Records an error raised while handling the request (the Exception panel shows each, in order). */
  fail(error: unknown): void {
    this.errors.push(error);
  }

  log(level: LogLevel, message: string, context: Readonly<Record<string, unknown>> = {}): void {
    this.trace.log(level, message, context);
  }

  record(kind: string, entry: object): boolean {
    return this.#records.add(kind, entry);
  }

  records<TEntry extends object>(kind: string): RecordedEntries<TEntry> {
    return this.#records.get<TEntry>(kind);
  }

  elapsed(): number {
    return this.trace.now();
  }

  beginSpan(name: string, category: SpanCategory = 'app'): () => void {
    const index = this.trace.openHere(name, category);
    return () => this.trace.end(index);
  }

  /**
   * The token of the profile, for a response about to be sent with `status`: set it as
   * `X-Debug-Token` (and its link) before the headers go. `null` when the request is not profiled
   * (sampled out, or its profile could not be stored). Asked once; later calls answer the same.
   */
  respond(status: number): string | null {
    if (this.#token === undefined) this.#token = this.#owner.issueToken(this, status);
    return this.#token;
  }

  /**
   * Ends the request: `response` is what was sent, or `null` when the client left first. The
   * profile is then collected, redacted and handed to the writer (a request that got no token
   * yet gets one now, as it was never sent). Once only; later calls do nothing.
   */
  end(response: ResponseEnd | null): void {
    if (this.#ended) return;
    this.#ended = true;
    this.trace.finish();
    if (response === null) this.aborted = true;
    else {
      this.response = responseOf(response);
      this.sent = true;
    }
    const token = this.respond(response?.status ?? 0);
    if (token !== null) this.#owner.finish(this, { token, parent: null, children: [] });
  }
}
