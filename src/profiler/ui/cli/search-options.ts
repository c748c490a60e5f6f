import { CliError } from '../../../cli/cli-error';
import { type ProfileCriteria, type SearchResult } from '../../storage/profile-storage';

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--status`: a code (0 to 999) or a class (`1xx` to `5xx`), as search criteria. */
export function statusOption(raw: string | undefined): Pick<ProfileCriteria, 'statusCode' | 'statusClass'> {
  if (raw === undefined) return {};
  if (/^[1-5]xx$/i.test(raw)) return { statusClass: Number(raw[0]) };
  if (!/^\d{1,3}$/.test(raw)) throw CliError.usage(`--status expects a status code from 0 to 999 or a class from 1xx to 5xx, got "${raw}".`);
  return { statusCode: Number(raw) };
}

/** `--since 10m`: a duration (`30s`, `10m`, `2h`, `1d`) in milliseconds. */
export function sinceOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d{1,9})(s|m|h|d)$/.exec(raw.trim());
  const unit = match === null ? undefined : UNITS[match[2] ?? ''];
  if (match === null || unit === undefined) throw CliError.usage(`--since expects a duration such as 30s, 10m, 2h or 1d, got "${raw}".`);
  return Number(match[1]) * unit;
}

/** The search criteria of `since` (a duration such as `10m`, see sinceOption) and `route`: the window profiler:check and the MCP tools read. */
export function windowCriteria(since: string | undefined, route: string | undefined): Pick<ProfileCriteria, 'start' | 'route'> {
  const ms = sinceOption(since);
  return { ...(ms === undefined ? {} : { start: Date.now() - ms }), ...(route === undefined ? {} : { route }) };
}

/** Which rows of how many: `Rows 1-20 of 45, page 1 of 3` and, when there is one, how to ask for the next page (`next`). */
export function pageNote(result: SearchResult, page: number, limit: number, next: (page: number) => string): string {
  const pages = Math.max(1, Math.ceil(result.total / limit));
  const first = result.total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(result.total, page * limit);
  const more = page < pages ? `; ${next(page + 1)} shows the next` : '';
  const partial = result.complete ? '' : ` (only the newest ${result.scanned} profiles were searched)`;
  return `Rows ${first}-${last} of ${result.total}${partial}, page ${page} of ${pages}${more}.\n`;
}
