import { type CollectedRequest } from '../../../kernel/collected-request';
import { type RecordedEntries } from '../../../kernel/request-records';
import { analyzeQueries, slowCalls, totalTime, type StoredCall, type StoredOrigin, type StoredQuery } from '../../app-io/analyze-calls';
import { AppIoKinds, type CapturedCall, type DbQueryEntry, type HttpCallEntry, type RedisCommandEntry } from '../../app-io/app-io-entries';
import { callerFrames, type CallOrigin } from '../../app-io/capture-origin';
import { isFailedHttpCall, isWarnedHttpCall } from '../../app-io/http-call-outcome';
import { redisErrorText } from '../../app-io/redis-error-text';
import { redactSql } from '../../app-io/sql-text';
import { type ProfileCollector } from '../../collector';
import { cutText } from '../cut-text';
import { type RedactionPolicy } from '../redaction-policy';
import { redactsItself, textOrNull } from '../redacts-itself';

export const DATABASE_COLLECTOR = 'db';
export const HTTP_CLIENT_COLLECTOR = 'http_client';
export const REDIS_COLLECTOR = 'redis';

/** Longest SQL text, in serialized bytes, kept of one query. */
const SQL_BYTES = 4 * 1024;
/** Longest parameter or Redis argument kept. */
const VALUE_BYTES = 256;

/** What every collector of captured calls stores beside its list: totals and the flags' counts. */
export interface CallTotals {
  readonly count: number;
  /** Milliseconds of all finished calls. */
  readonly time: number;
  /** Calls captured past PROFILER_MAX_ENTRIES: counted, not kept. */
  readonly dropped: number;
  readonly errors: number;
  /** Calls at least `slowMs` long. */
  readonly slow: number;
  /** The slow threshold when the profile was collected (PROFILER_SLOW_CALL_MS). */
  readonly slowMs: number;
}

export interface DatabaseCollectorData extends CallTotals {
  readonly queries: readonly StoredQuery[];
  /** Query shapes flagged N+1. */
  readonly nPlusOne: number;
  /** Queries that repeat an earlier one exactly. */
  readonly duplicates: number;
}

export interface StoredHttpCall extends StoredCall {
  readonly client: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly requestSize: number | null;
  readonly responseSize: number | null;
}

export interface HttpClientCollectorData extends CallTotals {
  readonly calls: readonly StoredHttpCall[];
  /** Calls answered 4xx, warnings (`errors` counts the 5xx and the unanswered); profiles written before it have none. */
  readonly warnings?: number;
}

export interface StoredRedisCommand extends StoredCall {
  readonly client: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly database: number | null;
  readonly batch?: number;
}

export interface RedisCollectorData extends CallTotals {
  readonly commands: readonly StoredRedisCommand[];
}

export interface AppIoCollectorOptions {
  /** PROFILER_SLOW_CALL_MS. */
  readonly slowMs: number;
}

/** What every call stores; its strings redacted, as every string these collectors store (they redact themselves). */
/**
 * What every stored call has; each collector adds its own fields with Object.assign. Not with a
 * spread (`{ ...storedCall(…), sql }`): on Node 20 a spread followed by more properties costs
 * microseconds per object (measured 3–22 µs, against 0.1–0.2 µs for Object.assign), per captured call.
 */
function storedCall(call: CapturedCall, redaction: RedactionPolicy): StoredCall {
  const origin = storedOrigin(call.origin, redaction);
  const stored = { start: call.start, duration: call.duration, error: textOrNull(call.error, redaction), origin };
  const callers = callerFrames(call.origin);
  // Most calls are made straight from one function: their stack would only repeat the origin.
  if (callers.length === 0) return stored;
  return Object.assign(stored, { stack: [origin, ...callers.map((frame) => storedOrigin(frame, redaction))] });
}

/** An origin as stored: how it was found only when not on the synchronous stack, which every reader takes as the default. */
function storedOrigin(origin: CallOrigin, redaction: RedactionPolicy): StoredOrigin {
  const stored = { file: redaction.text(origin.file), line: origin.line, function: redaction.text(origin.function) };
  if (origin.found === 'stack') return stored;
  if (origin.library === undefined) return Object.assign(stored, { found: origin.found });
  return Object.assign(stored, { found: origin.found, library: redaction.text(origin.library) });
}

/** The totals of `calls`, then `rest`: one object built once (spreading the totals into another cost more than the rest). */
function withTotals<TCall extends StoredCall, TRest extends object>(
  calls: readonly TCall[],
  recorded: RecordedEntries,
  slowMs: number,
  rest: TRest,
  failed: (call: TCall) => boolean = (call) => call.error !== null,
): CallTotals & TRest {
  const empty = calls.length === 0;
  const totals: CallTotals = {
    count: calls.length + recorded.dropped,
    time: empty ? 0 : totalTime(calls),
    dropped: recorded.dropped,
    errors: empty ? 0 : calls.filter(failed).length,
    slow: empty ? 0 : slowCalls(calls, slowMs).size,
    slowMs,
  };
  return Object.assign(totals, rest);
}

function cutValue(value: unknown, redaction: RedactionPolicy): unknown {
  const redacted = redaction.data(value);
  return typeof redacted === 'string' ? cutText(redacted, VALUE_BYTES) : redacted;
}

function storedQuery(query: DbQueryEntry, redaction: RedactionPolicy): StoredQuery {
  // mysql2 reads `"…"` as a string (MySQL's default sql_mode), pg as an identifier.
  const dialect = query.driver.startsWith('mysql') ? 'mysql' : 'pg';
  const redacted = redactSql(query, (name) => redaction.isSecretName(name), dialect);
  const params = Array.isArray(redacted.params) ? redacted.params.map((param) => cutValue(param, redaction)) : redaction.data(redacted.params);
  return Object.assign(storedCall(query, redaction), {
    error: textOrNull(redacted.error, redaction),
    driver: redaction.text(query.driver),
    sql: cutText(redaction.text(redacted.sql), SQL_BYTES),
    params,
    database: redaction.text(query.database),
    rows: query.rows,
  });
}

/** The application's SQL queries (mysql2, pg, postgres.js), as Symfony's Doctrine collector: text, parameters, rows, timing, origin. */
export function createDatabaseCollector(options: AppIoCollectorOptions): ProfileCollector<DatabaseCollectorData> {
  return redactsItself({
    name: DATABASE_COLLECTOR,
    collect: (request: CollectedRequest, redaction) => {
      const recorded = request.records<DbQueryEntry>(AppIoKinds.DB);
      const queries = recorded.entries.map((query) => storedQuery(query, redaction));
      // Most requests make no query: nothing to analyse.
      const analysis = queries.length === 0 ? null : analyzeQueries(queries, options.slowMs);
      return withTotals(queries, recorded, options.slowMs, {
        queries,
        nPlusOne: analysis === null ? 0 : analysis.groups.filter((group) => group.nPlusOne).length,
        duplicates: analysis === null ? 0 : analysis.duplicates.size,
      });
    },
  });
}

/** The application's outgoing HTTP calls (fetch/undici, node:http/https), as Symfony's HttpClient collector. */
export function createHttpClientCollector(options: AppIoCollectorOptions): ProfileCollector<HttpClientCollectorData> {
  return redactsItself({
    name: HTTP_CLIENT_COLLECTOR,
    collect: (request: CollectedRequest, redaction) => {
      const recorded = request.records<HttpCallEntry>(AppIoKinds.HTTP);
      const calls = recorded.entries.map(
        (call): StoredHttpCall =>
          Object.assign(storedCall(call, redaction), {
            client: redaction.text(call.client),
            method: redaction.text(call.method),
            url: redaction.text(call.url),
            status: call.status,
            requestHeaders: redaction.headers(call.requestHeaders),
            responseHeaders: redaction.headers(call.responseHeaders),
            requestSize: call.requestSize,
            responseSize: call.responseSize,
          }),
      );
      return withTotals(calls, recorded, options.slowMs, { calls, warnings: calls.filter(isWarnedHttpCall).length }, isFailedHttpCall);
    },
  });
}

/** The application's own Redis commands (ioredis), as Symfony's Redis/Cache collectors; Loupe's own are not among them. */
export function createRedisCollector(options: AppIoCollectorOptions): ProfileCollector<RedisCollectorData> {
  return redactsItself({
    name: REDIS_COLLECTOR,
    collect: (request: CollectedRequest, redaction) => {
      const recorded = request.records<RedisCommandEntry>(AppIoKinds.REDIS);
      const commands = recorded.entries.map((command): StoredRedisCommand => {
        const stored = Object.assign(storedCall(command, redaction), {
          error: textOrNull(redisErrorText(command.error, command.args), redaction),
          client: redaction.text(command.client),
          command: redaction.text(command.command),
          args: command.args.map((arg) => cutText(redaction.text(arg), VALUE_BYTES)),
          database: command.database,
        });
        return command.batch === undefined ? stored : Object.assign(stored, { batch: command.batch });
      });
      return withTotals(commands, recorded, options.slowMs, { commands });
    },
  });
}
