import { SEARCH_ORDERS, SEARCH_SORTS, type ProfileCriteria, type SearchOrder, type SearchSort } from '../../storage/profile-storage';

/** The search filters as typed, to prefill the form and to build the links to other pages. */
export interface SearchForm {
  readonly ip: string;
  readonly method: string;
  readonly status_code: string;
  readonly url: string;
  /** At least this many SQL queries. */
  readonly min_queries: string;
  readonly start: string;
  readonly end: string;
  readonly limit: string;
  readonly sort: string;
  readonly order: string;
  readonly page: string;
  /** Toggles: `1` when ticked, else empty. */
  readonly aborted: string;
  readonly sub_requests: string;
  readonly favicon: string;
  /** Only requests with a query run in a loop (N+1). */
  readonly n_plus_one: string;
}

export const SEARCH_FIELDS = ['ip', 'method', 'status_code', 'url', 'min_queries', 'start', 'end', 'limit', 'sort', 'order', 'page', 'aborted', 'sub_requests', 'favicon', 'n_plus_one'] as const;

export const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;
const MAX_PAGE = 10_000;
/** More queries than any profile keeps (PROFILER_MAX_ENTRIES bounds them, dropped ones counted). */
const MAX_QUERIES = 1_000_000_000;

export type SearchQuery =
  | { readonly ok: true; readonly criteria: ProfileCriteria; readonly form: SearchForm; readonly page: number; readonly limit: number }
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

/** A ticked checkbox sends its value; anything but empty or `0` is on. */
function toggle(value: string): string {
  return value === '' || value === '0' ? '' : '1';
}

function readForm(query: URLSearchParams): SearchForm {
  const raw = (name: string): string => (query.get(name) ?? '').trim();
  return {
    ip: raw('ip'),
    method: raw('method').toUpperCase(),
    status_code: raw('status_code').toLowerCase(),
    url: raw('url'),
    min_queries: raw('min_queries'),
    start: raw('start'),
    end: raw('end'),
    limit: raw('limit'),
    sort: raw('sort'),
    order: raw('order'),
    page: raw('page'),
    aborted: toggle(raw('aborted')),
    sub_requests: toggle(raw('sub_requests')),
    favicon: toggle(raw('favicon')),
    n_plus_one: toggle(raw('n_plus_one')),
  };
}

function positive(value: string, max: number): number | null {
  const number = Number(value);
  return /^\d+$/.test(value) && number >= 1 && number <= max ? number : null;
}

/**
 * The search filters of a query string as storage criteria, or the message naming the invalid
 * one. Empty fields are no filter; `status_code` is a code (`404`) or a class (`5xx`);
 * `min_queries` a count of SQL queries (0 is no filter) and `n_plus_one` a toggle; error
 * sub-requests and `/favicon.ico` are left out unless `sub_requests` or `favicon` is ticked;
 * `page` (from 1) and `limit` (its size) choose the page.
 */
export function parseSearchQuery(query: URLSearchParams): SearchQuery {
  const form = readForm(query);
  const criteria: Mutable<ProfileCriteria> = {};
  const fail = (message: string): SearchQuery => ({ ok: false, message, form });
  if (form.ip !== '') criteria.ip = form.ip;
  if (form.method !== '') {
    if (!/^[A-Z]{1,20}$/.test(form.method)) return fail(invalid('method', form.method, 'an HTTP method such as GET'));
    criteria.method = form.method;
  }
  if (form.url !== '') criteria.url = form.url;
  if (/^[1-5]xx$/.test(form.status_code)) criteria.statusClass = Number(form.status_code[0]);
  else if (form.status_code !== '') {
    const status = Number(form.status_code);
    if (!/^\d{3}$/.test(form.status_code) || status < 100) return fail(invalid('status_code', form.status_code, 'an HTTP status code from 100 to 599, or a class from 1xx to 5xx'));
    criteria.statusCode = status;
  }
  if (form.min_queries !== '') {
    const least = Number(form.min_queries);
    if (!/^\d{1,10}$/.test(form.min_queries) || least > MAX_QUERIES) return fail(invalid('min_queries', form.min_queries, `an integer from 0 to ${MAX_QUERIES}`));
    if (least > 0) criteria.minQueries = least;
  }
  for (const name of ['start', 'end'] as const) {
    if (form[name] === '') continue;
    const time = parseTime(form[name]);
    if (time === null) return fail(invalid(name, form[name], 'epoch milliseconds or an ISO 8601 date'));
    criteria[name] = time;
  }
  const limit = form.limit === '' ? DEFAULT_LIMIT : positive(form.limit, MAX_LIMIT);
  if (limit === null) return fail(invalid('limit', form.limit, `an integer from 1 to ${MAX_LIMIT}`));
  const page = form.page === '' ? 1 : positive(form.page, MAX_PAGE);
  if (page === null) return fail(invalid('page', form.page, `an integer from 1 to ${MAX_PAGE}`));
  const sort = form.sort === '' ? 'time' : SEARCH_SORTS.find((name) => name === form.sort);
  if (sort === undefined) return fail(invalid('sort', form.sort, SEARCH_SORTS.join(' or ')));
  const order = form.order === '' ? 'desc' : SEARCH_ORDERS.find((name) => name === form.order);
  if (order === undefined) return fail(invalid('order', form.order, SEARCH_ORDERS.join(' or ')));
  criteria.limit = limit;
  if (page > 1) criteria.offset = (page - 1) * limit;
  if (sort !== 'time') criteria.sort = sort satisfies SearchSort;
  if (order !== 'desc') criteria.order = order satisfies SearchOrder;
  if (form.aborted !== '') criteria.aborted = true;
  if (form.n_plus_one !== '') criteria.nPlusOne = true;
  if (form.sub_requests === '') criteria.mainRequestsOnly = true;
  if (form.favicon === '') criteria.hideFavicon = true;
  return { ok: true, criteria, form, page, limit };
}

/** The query string of `form` with `changes` applied, empty fields left out: the link to another page of the same search. */
export function searchQueryString(form: SearchForm, changes: Partial<SearchForm> = {}): string {
  const query = new URLSearchParams();
  const merged: SearchForm = { ...form, ...changes };
  for (const name of SEARCH_FIELDS) if (merged[name] !== '') query.set(name, merged[name]);
  return query.toString();
}
