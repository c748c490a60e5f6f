import { type CollectedRequest } from '../../kernel/collected-request';
import { type ProfileCollector } from '../collector';
import { profileDuration } from './collectors/timings';
import { type CollectorEntry, type Profile } from '../profile';
import { PROFILE_VERSION } from '../profiler-config';
import { cutText } from './cut-text';
import { type RedactionPolicy } from './redaction-policy';
import { isRedactingItself } from './redacts-itself';

export interface CollectOptions {
  readonly token: string;
  readonly parent: string | null;
  readonly children: readonly string[];
  /** What the profile records, each collector's data under its name (see defaultCollectors). */
  readonly collectors: readonly ProfileCollector[];
  /** What the profile may keep: applied by the collectors and, to every string, once more here (but to those of collectors that redact every string themselves, see redactsItself). */
  readonly redaction: RedactionPolicy;
}

function isEntry(value: unknown): value is CollectorEntry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collectEntries(exchange: CollectedRequest, collectors: readonly ProfileCollector[], redaction: RedactionPolicy): Record<string, CollectorEntry> {
  const entries: Record<string, CollectorEntry> = {};
  for (const collector of collectors) {
    try {
      const collected = collector.collect(exchange, redaction);
      const data = isRedactingItself(collector) ? collected : redaction.entry(collected);
      if (isEntry(data)) entries[collector.name] = data;
    } catch {
      // A collector that fails (an application's, most likely) loses its own entry, whose panel
      // then says it has no data, rather than the whole profile and the token already sent.
    }
  }
  return entries;
}

/** Longest URL, in serialized bytes, a sub-request's profile repeats of its parent's. */
const SUB_REQUEST_URL_BYTES = 256;

/** The request's URL; a sub-request for the same URL as its parent's keeps only its start. */
function urlOf(exchange: CollectedRequest, redaction: RedactionPolicy): string {
  const url = redaction.text(exchange.request.uri);
  if (exchange.parent === null || exchange.parent.request.uri !== exchange.request.uri) return url;
  return cutText(url, SUB_REQUEST_URL_BYTES, '; the parent request has the whole URL');
}

/**
 * The profile of one finished request: the envelope, then each collector's plain, bounded and
 * redacted data, built synchronously so that nothing of the request outlives it.
 */
export function collectProfile(exchange: CollectedRequest, options: CollectOptions): Profile {
  const { request, response, trace } = exchange;
  return {
    version: PROFILE_VERSION,
    token: options.token,
    parent: options.parent,
    children: options.children,
    type: exchange.parent === null ? 'main' : 'sub',
    method: request.method,
    url: urlOf(exchange, options.redaction),
    ip: request.data.remoteAddress,
    // A sub-request is never sent itself: its status is its response's.
    statusCode: exchange.sent || exchange.parent !== null ? (response?.status ?? 0) : 0,
    time: trace.startedAt,
    duration: profileDuration(exchange),
    aborted: exchange.aborted,
    collectors: collectEntries(exchange, options.collectors, options.redaction),
    profilerCost: { collect: 0 },
  };
}
