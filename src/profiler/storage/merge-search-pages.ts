import { parseSummary } from '../parse-summary';
import { type FoundRow, type SearchOrder, type SearchResult, type SearchSort } from './profile-storage';

/** One row of a group's search page, with what it is sorted by. */
export interface PageRow {
  readonly token: string;
  readonly json: string;
  /** The index score: the request's start, epoch ms. */
  readonly time: number;
  /** The summary's duration, -1 when it has none or cannot be read. */
  readonly duration: number;
}

/** What one group's search answered: its page and its counts. */
export interface GroupPage {
  readonly rows: readonly PageRow[];
  readonly total: number;
  readonly scanned: number;
  readonly complete: boolean;
}

/** A group's page as the find script returns it: total, scanned, complete, then token, row, time, duration for each row. */
export function readGroupPage(reply: readonly (string | number)[]): GroupPage {
  const [total, scanned, complete, ...flat] = reply;
  const rows: PageRow[] = [];
  for (let i = 0; i + 3 < flat.length; i += 4) {
    rows.push({ token: String(flat[i] ?? ''), json: String(flat[i + 1] ?? ''), time: Number(flat[i + 2]), duration: Number(flat[i + 3]) });
  }
  return { rows, total: Number(total), scanned: Number(scanned), complete: Number(complete) === 1 };
}

/**
 * Newest first as one sorted set orders it: by time, then by token, both descending (Redis sorts
 * equal scores by member). Oldest first is the exact reverse.
 */
function byTime(a: PageRow, b: PageRow): number {
  if (a.time !== b.time) return b.time - a.time;
  if (a.token === b.token) return 0;
  return a.token < b.token ? 1 : -1;
}

/** The order the find script gives one group, so that merged pages read as one. */
function comparator(sort: SearchSort, order: SearchOrder): (a: PageRow, b: PageRow) => number {
  if (sort === 'duration') {
    // Ties keep the order of the index: newest first.
    const sign = order === 'asc' ? 1 : -1;
    return (a, b) => (a.duration !== b.duration ? sign * (a.duration - b.duration) : byTime(a, b));
  }
  return order === 'asc' ? (a, b) => byTime(b, a) : byTime;
}

/**
 * The pages of every group as one page: each group answered its first `offset + limit` rows in
 * the order asked for, so the page [offset, offset + limit) of them all is among them. Counts add
 * up; the search is complete when every group read its whole range.
 */
export function mergeSearchPages(pages: readonly GroupPage[], sort: SearchSort, order: SearchOrder, offset: number, limit: number): SearchResult {
  const merged = pages.flatMap((page) => page.rows).sort(comparator(sort, order));
  const rows: FoundRow[] = merged.slice(offset, offset + limit).map((row) => parseSummary(row.token, row.json));
  return {
    rows,
    total: pages.reduce((sum, page) => sum + page.total, 0),
    scanned: pages.reduce((sum, page) => sum + page.scanned, 0),
    complete: pages.every((page) => page.complete),
  };
}
