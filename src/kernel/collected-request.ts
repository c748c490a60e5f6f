import { type LoupeRequest } from '../http/request';
import { type LoupeResponse } from '../http/response';
import { type AttributeKey } from './attributes';
import { type Controller } from './controller';
import { type RecordedEntries } from './request-records';
import { type ListenerRecord, type LogRecord, type PhaseRecord, type SpanRecord } from './trace';

/** The typed attributes of a request, to read (see Attributes). */
export interface ReadonlyAttributes {
  /** The value set under `key`, or `undefined` when none was. */
  get<T>(key: AttributeKey<T>): T | undefined;
  /** Whether a value was set under `key`. */
  has(key: AttributeKey<unknown>): boolean;
}

/** What a request's trace recorded: its states, spans and log, timed from its start. */
export interface RequestTimings {
  /** Wall-clock start, epoch milliseconds. */
  readonly startedAt: number;
  /** `performance.now()` when the request started. */
  readonly origin: number;
  /** Every span: the machine's states (depth 0), listeners, the controller, features' and the application's spans. */
  readonly spans: readonly Readonly<SpanRecord>[];
  /** The request's log entries in order (empty without a detailed trace: no debug, no Server-Timing). */
  readonly logs: readonly LogRecord[];
  /** The machine's states, in order. */
  readonly states: readonly PhaseRecord[];
  /** The listeners that ran to the end, in order, with their phase. */
  readonly listeners: readonly ListenerRecord[];
  /** Application spans not recorded once the trace held its maximum. */
  readonly droppedSpans: number;
  /** Milliseconds since the request started. */
  now(): number;
}

/** How a streamed response body went out, timed from the request's start. */
export interface StreamedBody {
  /** Bytes of the body handed to the connection. */
  readonly bytes: number;
  /** Milliseconds since the request started when the head and the first bytes went out (the time to first byte); `null` when none did. */
  readonly firstByte: number | null;
  /** Milliseconds since the request started when the body was over (its last byte, its failure or the client's leaving). */
  readonly lastByte: number;
  /** The client went away before the body's end. */
  readonly aborted: boolean;
  /** The body's source failed (its error is the last of `errors`); the connection was closed. */
  readonly failed: boolean;
}

/**
 * A finished request as a collector sees it (Symfony's `collect(Request, Response, ?Throwable)`):
 * read-only, and gone once `collect` returns. An error sub-request is collected as a request
 * of its own, with `parent` set.
 */
export interface CollectedRequest {
  /** The request as received (for an error sub-request, its GET copy of the parent's). */
  readonly request: LoupeRequest;
  /** The response built, even when it could not be sent; `null` when none was. */
  readonly response: LoupeResponse | null;
  /** The request this one rendered an error for, or `null` for a main request. */
  readonly parent: CollectedRequest | null;
  /** The error sub-request this one started, or `null`. */
  readonly subRequest: CollectedRequest | null;
  /** Every error raised while handling the request, in order. */
  readonly errors: readonly unknown[];
  /** The error an error sub-request renders; `null` for any other request. */
  readonly renderedError: unknown;
  /** The controller that handled the request; `null` when none was chosen (a 404, or a listener answered first). */
  readonly controller: Controller | null;
  /** The typed attributes listeners and the controller set (the user, the session…). */
  readonly attributes: ReadonlyAttributes;
  /** The request's states, spans, listeners and log, timed from its start. */
  readonly trace: RequestTimings;
  /** The client went away before the response was written, or before the end of its streamed body. */
  readonly aborted: boolean;
  /** The response was handed to the client. */
  readonly sent: boolean;
  /** How the response's streamed body went out, once it is over; absent or `null` for a body written whole. */
  readonly streamed?: StreamedBody | null;
  /** What was recorded under `kind` while the request ran (see CurrentRequest.record). */
  records<TEntry extends object>(kind: string): RecordedEntries<TEntry>;
}
