import { originText } from '../app-io/analyze-calls';
import { isFailedHttpCall } from '../app-io/http-call-outcome';
import {
  DATABASE_COLLECTOR,
  HTTP_CLIENT_COLLECTOR,
  REDIS_COLLECTOR,
  type DatabaseCollectorData,
  type HttpClientCollectorData,
  type RedisCollectorData,
} from '../collect/collectors/app-io-collectors';
import { collectorData, type Profile } from '../profile';

/** A call of the application's that failed: what it was, and where it was made. */
export interface FailedCall {
  /** `SQL query SELECT …: relation "x" does not exist`, `HTTP call GET http://…: 502`. */
  readonly what: string;
  /** `file:line`, `''` when unknown. */
  readonly origin: string;
}

/** Characters of a statement, URL or error a failure quotes. */
const TEXT_CHARS = 120;

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TEXT_CHARS ? flat : `${flat.slice(0, TEXT_CHARS)}…`;
}

/** Lists of a damaged entry count as none: a budget is checked on what was stored, not guessed. */
function listOf<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The calls of `profile` that failed: an SQL query with an error, an HTTP call that got no
 * response or a 5xx one (a 4xx is an answer the application may expect, as a 404 for a lookup),
 * a Redis command answered with an error reply. What a budget's `failedCalls: false` forbids.
 */
export function failedCalls(profile: Profile): FailedCall[] {
  const db = collectorData<DatabaseCollectorData>(profile, DATABASE_COLLECTOR);
  const http = collectorData<HttpClientCollectorData>(profile, HTTP_CLIENT_COLLECTOR);
  const redis = collectorData<RedisCollectorData>(profile, REDIS_COLLECTOR);
  return [
    ...listOf(db?.queries)
      .filter((query) => query.error !== null)
      .map((query) => ({ what: `SQL query ${short(query.sql)}: ${short(query.error ?? '')}`, origin: originText(query.origin) })),
    ...listOf(http?.calls)
      .filter(isFailedHttpCall)
      .map((call) => ({ what: `HTTP call ${call.method} ${short(call.url)}: ${call.error === null ? call.status : short(call.error)}`, origin: originText(call.origin) })),
    ...listOf(redis?.commands)
      .filter((command) => command.error !== null)
      .map((command) => ({ what: `Redis command ${short([command.command.toUpperCase(), ...command.args].join(' '))}: ${short(command.error ?? '')}`, origin: originText(command.origin) })),
  ];
}
