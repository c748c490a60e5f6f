import { type ProfileCriteria } from '../profile-storage';

/** The search filters as typed, to prefill the form. */
export interface SearchForm {
  readonly ip: string;
  readonly method: string;
  readonly status_code: string;
  readonly url: string;
  readonly start: string;
  readonly end: string;
  readonly limit: string;
}

export const SEARCH_FIELDS = ['ip', 'method', 'status_code', 'url', 'start', 'end', 'limit'] as const;

export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

export type SearchQuery =
  | { readonly ok: true; readonly criteria: ProfileCriteria; readonly form: SearchForm }
  | { readonly ok: false; readonly message: string; readonly form: SearchForm };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Epoch milliseconds, or an ISO 8601 date (what a `datetime-local` field sends). */
function parseTime(value: string): number | null {
  if (/^\d+$/.test(value)) return Number(value);
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

function invalid(name: string, value: string, expected: string): string {
  return `Invalid search filter "${name}" "${value}": expected ${expected}.`;
}

/**
 * The search filters of a query string (`ip, method, status_code, url, start, end, limit`;
 * empty fields are no filter) as storage criteria, or the message naming the invalid one.
 */
export function parseSearchQuery(query: URLSearchParams): SearchQuery {
  const raw = (name: string): string => (query.get(name) ?? '').trim();
  const form: SearchForm = {
    ip: raw('ip'),
    method: raw('method').toUpperCase(),
    status_code: raw('status_code'),
    url: raw('url'),
    start: raw('start'),
    end: raw('end'),
    limit: raw('limit'),
  };
  const criteria: Mutable<ProfileCriteria> = { limit: DEFAULT_LIMIT };
  const fail = (message: string): SearchQuery => ({ ok: false, message, form });
  if (form.ip !== '') criteria.ip = form.ip;
  if (form.method !== '') {
    if (!/^[A-Z]{1,20}$/.test(form.method)) return fail(invalid('method', form.method, 'an HTTP method such as GET'));
    criteria.method = form.method;
  }
  if (form.url !== '') criteria.url = form.url;
  if (form.status_code !== '') {
    const status = Number(form.status_code);
    if (!/^\d{3}$/.test(form.status_code) || status < 100) return fail(invalid('status_code', form.status_code, 'an HTTP status code from 100 to 599'));
    criteria.statusCode = status;
  }
  for (const name of ['start', 'end'] as const) {
    if (form[name] === '') continue;
    const time = parseTime(form[name]);
    if (time === null) return fail(invalid(name, form[name], 'epoch milliseconds or an ISO 8601 date'));
    criteria[name] = time;
  }
  if (form.limit !== '') {
    const limit = Number(form.limit);
    if (!/^\d+$/.test(form.limit) || limit < 1 || limit > MAX_LIMIT) return fail(invalid('limit', form.limit, `an integer from 1 to ${MAX_LIMIT}`));
    criteria.limit = limit;
  }
  return { ok: true, criteria, form };
}
