import { isRequestOrigin, originFunction, requestOriginText, type StoredCall } from '../../app-io/analyze-calls';
import { DATABASE_COLLECTOR, HTTP_CLIENT_COLLECTOR, REDIS_COLLECTOR, type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../../collect/collectors/app-io-collectors';
import { type TimelineSpan } from '../../collect/collectors/timeline-collector';
import { collectorData, type Profile } from '../../profile';

/** What each span category stands for, in the waterfall's legend. */
export const CATEGORY_LABELS: Readonly<Record<string, string>> = {
  phase: 'state',
  sub_request: 'sub-request',
  redis: "Loupe's Redis (sessions)",
  db: 'SQL',
  http: 'HTTP client',
  cache: "application's Redis",
  app: 'application',
};

/** A captured call as its span's title says it: the client, and where in the application it was made. */
function describe(client: string, call: StoredCall): string {
  const { origin } = call;
  if (origin === null) return client;
  return isRequestOrigin(origin) ? `${client} · ${requestOriginText(origin)}` : `${client} · ${originFunction(origin)} ${origin.file}:${origin.line}`;
}

/** The spans of `category`, in the order their calls were captured: each call opens its span as it is recorded. */
function pair(details: Map<TimelineSpan, string>, spans: readonly TimelineSpan[], category: string, described: readonly string[]): void {
  const own = spans.filter((span) => span.category === category);
  // Spans past the trace's limit or calls past PROFILER_MAX_ENTRIES break the pairing: then none is named.
  if (own.length !== described.length) return;
  own.forEach((span, index) => details.set(span, described[index] ?? ''));
}

/**
 * Each application call's span with its client (driver) and origin, read from the call's own
 * panel: the waterfall's row title says which query of which code it is.
 */
export function spanDetails(profile: Profile, spans: readonly TimelineSpan[]): ReadonlyMap<TimelineSpan, string> {
  const details = new Map<TimelineSpan, string>();
  const byStart = [...spans].sort((a, b) => a.start - b.start);
  const db = collectorData<DatabaseCollectorData>(profile, DATABASE_COLLECTOR);
  const http = collectorData<HttpClientCollectorData>(profile, HTTP_CLIENT_COLLECTOR);
  const redis = collectorData<RedisCollectorData>(profile, REDIS_COLLECTOR);
  if (db !== undefined && db.dropped === 0) pair(details, byStart, 'db', db.queries.map((query) => describe(query.driver, query)));
  if (http !== undefined && http.dropped === 0) pair(details, byStart, 'http', http.calls.map((call) => describe(call.client, call)));
  if (redis !== undefined && redis.dropped === 0) pair(details, byStart, 'cache', redis.commands.map((command) => describe(command.client, command)));
  return details;
}
