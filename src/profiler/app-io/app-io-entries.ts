import { type CallOrigin } from './capture-origin';

/** The record kinds the profiler's own capture publishes into a request (see CurrentRequest.record). */
export const AppIoKinds = {
  /** SQL queries (mysql2, pg, postgres.js). */
  DB: 'db',
  /** Outgoing HTTP calls (fetch/undici, node:http and https). */
  HTTP: 'http_client',
  /** The application's Redis commands (ioredis, node-redis). */
  REDIS: 'redis',
} as const;

/** What every captured call records: when it ran, how it ended and where the application made it. */
export interface CapturedCall {
  /** Milliseconds since the request started. */
  readonly start: number;
  /** Milliseconds; `null` while the call runs (still running when the profile was collected). */
  duration: number | null;
  /** The error's message when the call failed. */
  error: string | null;
  /** Always one: where no frame of the application's was on the stack, the request's position. */
  origin: CallOrigin;
}

export interface DbQueryEntry extends CapturedCall {
  /** `mysql2`, `pg` or `postgres` (postgres.js). */
  readonly driver: string;
  readonly sql: string;
  /** Bound parameters, in order (or by name), as given. */
  readonly params: unknown;
  readonly database: string;
  /** Rows returned or changed; `null` when the driver did not say. */
  rows: number | null;
}

export interface HttpCallEntry extends CapturedCall {
  /** `fetch` (undici) or `http` (node:http/https). */
  readonly client: string;
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Record<string, string>;
  /** 0 until the response headers came. */
  status: number;
  responseHeaders: Record<string, string>;
  /** Bytes of the request body, from its Content-Length; `null` when unknown. */
  readonly requestSize: number | null;
  /** Bytes of the response body, from its Content-Length; `null` when unknown. */
  responseSize: number | null;
}

export interface RedisCommandEntry extends CapturedCall {
  /** `ioredis` or `node-redis`. */
  readonly client: string;
  /** The command, or `TRANSACTION` for a MULTI…EXEC (`PIPELINE` for a pipeline) as a whole (`batch`: its commands), followed by the commands its client publishes. */
  readonly command: string;
  readonly args: readonly string[];
  readonly database: number | null;
  readonly batch?: number;
}
