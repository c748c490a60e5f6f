import { type LoupeRequest } from '../http/request';
import { type LoupeResponse } from '../http/response';
import { type StreamOutcome } from '../http/response-body';
import { Attributes } from './attributes';
import { type Controller, type ControllerArguments } from './controller';
import { type CollectedRequest, type StreamedBody } from './collected-request';
import { describeValue } from './describe-value';
import { KernelAttributes } from './kernel-attributes';
import { type CurrentRequest } from './request-context';
import { DEFAULT_RECORD_LIMIT, RequestRecords, type RecordedEntries } from './request-records';
import { type SpanCategory, type Stopwatch } from './stopwatch';
import { Trace, type LogLevel } from './trace';

let nextId = 1;

const NO_RECORDS: RecordedEntries<never> = Object.freeze({ entries: Object.freeze([]), dropped: 0 });

/** How a main request records. */
export interface ExchangeOptions {
  /** Record the controller's, features' and application's spans too (see Trace); default on. */
  readonly detailedTrace?: boolean;
  /** Entries kept of each kind of record (PROFILER_MAX_ENTRIES). */
  readonly recordLimit?: number;
}

/** The phase being dispatched, as the exchange keeps it for dispatch-phase.ts (which owns its shape). */
export interface DispatchCursor {
  /** Set while a listener's promise keeps the phase waiting. */
  readonly pending: object | null;
}

/**
 * The state of one request while its machine runs: the request, the response being built,
 * the controller, the error being handled, the attributes listeners share and the trace.
 * Plain data and value objects only; the uWS objects stay in the adapter.
 */
export class Exchange implements CollectedRequest, CurrentRequest {
  readonly id = nextId++;
  readonly request: LoupeRequest;
  /** The exchange that started this one as its error sub-request, or `null` for a main request. */
  readonly parent: Exchange | null;
  readonly trace: Trace;
  /** State listeners and controllers share, by typed key. */
  readonly attributes = new Attributes();
  response: LoupeResponse | null = null;
  controller: Controller | null = null;
  arguments: ControllerArguments | null = null;
  /** What the controller returned, while it is not yet a Response. */
  controllerResult: unknown = undefined;
  /** The error not yet handled; kernel.exception takes it. */
  error: unknown = null;
  /** The error kernel.exception took and is handling. */
  handlingError: unknown = null;
  /** Every error raised while handling this request, in order. */
  readonly errors: unknown[] = [];
  /** The error this exchange renders, for an error sub-request. */
  readonly renderedError: unknown;
  subRequest: Exchange | null = null;
  /** The phase being dispatched; `null` between phases that have listeners. */
  dispatch: DispatchCursor | null = null;
  /** Set when the client went away before the response was written. */
  aborted = false;
  /** Set once the response was handed to the client. */
  sent = false;
  /** How the streamed body went out, once it is over (see endStream); `null` for a body written whole. */
  streamed: StreamedBody | null = null;
  /** Entries kept of each kind of record. */
  readonly #recordLimit: number;
  /** What the application and its libraries published into this request, by kind (see record); made on the first. */
  #records: RequestRecords | null = null;

  /** A sub-request does as its parent, whatever `options` say. */
  constructor(request: LoupeRequest, parent: Exchange | null = null, renderedError: unknown = null, options: ExchangeOptions = {}) {
    this.request = request;
    this.parent = parent;
    this.trace = new Trace(parent?.trace.detailed ?? options.detailedTrace ?? true);
    this.renderedError = renderedError;
    this.#recordLimit = parent === null ? (options.recordLimit ?? DEFAULT_RECORD_LIMIT) : parent.#recordLimit;
  }

  /** The request's stopwatch (its trace). */
  get stopwatch(): Stopwatch {
    return this.trace;
  }

  log(level: LogLevel, message: string, context: Readonly<Record<string, unknown>> = {}): void {
    this.trace.log(level, message, context);
  }

  elapsed(): number {
    return this.trace.now();
  }

  beginSpan(name: string, category: SpanCategory = 'app'): () => void {
    const index = this.trace.openHere(name, category);
    return () => this.trace.end(index);
  }

  record(kind: string, entry: object): boolean {
    return (this.#records ??= new RequestRecords(this.#recordLimit)).add(kind, entry);
  }

  records<TEntry extends object>(kind: string): RecordedEntries<TEntry> {
    return this.#records === null ? NO_RECORDS : this.#records.get<TEntry>(kind);
  }

  get isMainRequest(): boolean {
    return this.parent === null;
  }

  /**
   * The streamed body is over, as the connection reports it: records how it went out, timed from
   * the request's start; a client that went away marks the request aborted, a source that
   * failed adds its error to the request's errors.
   */
  endStream(outcome: StreamOutcome): void {
    const { origin } = this.trace;
    const { bytes, firstByteAt, endedAt, aborted, failed } = outcome;
    this.streamed = { bytes, firstByte: firstByteAt === null ? null : firstByteAt - origin, lastByte: endedAt - origin, aborted, failed };
    if (aborted) {
      this.aborted = true;
      this.trace.log('warning', `The client went away after ${bytes} bytes of the streamed body.`);
    }
    if (failed) {
      this.errors.push(outcome.error);
      this.trace.log('error', `The streamed body failed after ${bytes} bytes; the connection was closed.`, { error: describeValue(outcome.error) });
    }
  }

  /** Records `error` as the one to handle next. */
  fail(error: unknown): void {
    this.error = error;
    this.errors.push(error);
  }

  /** The controller; the phases that ask for it are entered only once one was chosen. */
  requireController(): Controller {
    if (this.controller === null) throw new Error('No controller: the request machine entered a controller phase without one.');
    return this.controller;
  }

  /** The response; kernel.response is entered only with one. */
  requireResponse(): LoupeResponse {
    if (this.response === null) throw new Error('No response: the request machine entered kernel.response without one.');
    return this.response;
  }

  /** The controller's arguments, resolved once from the route parameters and the request's attributes. */
  resolveArguments(): ControllerArguments {
    if (this.arguments !== null) return this.arguments;
    const { request, attributes, trace } = this;
    const params: Record<string, string> = {};
    for (const [key, value] of request.attributes) {
      if (!key.startsWith('_') && typeof value === 'string') params[key] = value;
    }
    return (this.arguments = {
      request,
      params,
      session: attributes.get(KernelAttributes.SESSION) ?? null,
      user: attributes.get(KernelAttributes.USER) ?? null,
      locale: request.locale,
      error: this.renderedError,
      attributes,
      log: (level, message, context = {}) => trace.log(level, message, context),
      stopwatch: trace,
    });
  }

  /** The exchange that renders `error`: a GET for the error controller, same request data. */
  createErrorSubRequest(error: unknown, errorController: Controller): Exchange {
    const sub = new Exchange(this.request.duplicate('GET'), this, error);
    sub.request.attributes.set('_controller', errorController.name);
    sub.request.attributes.set('exception', error);
    const format = this.request.attributes.get('_format');
    if (format !== undefined) sub.request.attributes.set('_format', format);
    sub.controller = errorController;
    sub.attributes.set(KernelAttributes.PARENT_LOGS, this.trace.logs);
    this.subRequest = sub;
    return sub;
  }
}
