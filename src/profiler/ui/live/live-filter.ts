import { type LiveSummary } from './live-summary';

/** Which live summaries to show; every filter optional, all must match. */
export interface LiveFilter {
  /** Exact method, any case. */
  readonly method?: string;
  /** An exact status code, or a class: 5 for 5xx. */
  readonly status?: { readonly code: number } | { readonly class: number };
  /** A substring of the path (and query). */
  readonly path?: string;
  /** At least this many milliseconds. */
  readonly minMs?: number;
}

/** Reads `5xx` (a class, 1xx to 5xx) or an exact code (0 for a request whose client went away); `null` when it is neither. */
export function parseStatusFilter(text: string): LiveFilter['status'] | null {
  const trimmed = text.trim().toLowerCase();
  const kind = /^([1-5])xx$/.exec(trimmed);
  if (kind?.[1] !== undefined) return { class: Number(kind[1]) };
  if (!/^\d{1,3}$/.test(trimmed)) return null;
  return { code: Number(trimmed) };
}

/** Whether `summary` passes `filter`. */
export function matchesLiveFilter(summary: LiveSummary, filter: LiveFilter): boolean {
  if (filter.method !== undefined && summary.method.toUpperCase() !== filter.method.toUpperCase()) return false;
  if (filter.path !== undefined && !summary.path.includes(filter.path)) return false;
  if (filter.minMs !== undefined && summary.durationMs < filter.minMs) return false;
  const { status } = filter;
  if (status !== undefined) {
    if ('code' in status && summary.status !== status.code) return false;
    if ('class' in status && Math.floor(summary.status / 100) !== status.class) return false;
  }
  return true;
}
