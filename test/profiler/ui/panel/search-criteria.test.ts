import test from 'ava';
import { DEFAULT_LIMIT, parseSearchQuery } from '../../../../src/profiler/ui/panel/search-criteria';

const parse = (query: string) => parseSearchQuery(new URLSearchParams(query));

test('empty fields are no filter; the limit defaults; sub-requests and favicon.ico are hidden unless ticked', (t) => {
  const search = parse('ip=&method=&status_code=&url=&start=&end=&limit=&page=&sort=&order=');
  t.true(search.ok);
  if (search.ok) t.deepEqual(search.criteria, { limit: DEFAULT_LIMIT, mainRequestsOnly: true, hideFavicon: true });
  const shown = parse('sub_requests=1&favicon=on&aborted=1');
  if (shown.ok) t.deepEqual(shown.criteria, { limit: DEFAULT_LIMIT, aborted: true });
  const unticked = parse('sub_requests=0&aborted=');
  if (unticked.ok) t.deepEqual(unticked.criteria, { limit: DEFAULT_LIMIT, mainRequestsOnly: true, hideFavicon: true });
});

test('a status class, a sort, an order and a page', (t) => {
  const search = parse('status_code=5xx&sort=duration&order=asc&page=3&limit=20');
  t.true(search.ok);
  if (!search.ok) return;
  t.like(search.criteria, { statusClass: 5, sort: 'duration', order: 'asc', offset: 40, limit: 20 });
  t.is(search.page, 3);
  t.is(search.criteria.statusCode, undefined);
});

test('every filter is read, the method upper-cased', (t) => {
  const search = parse('ip=127.0.0.1&method=post&status_code=404&url=%2Fconfig&start=1700000000000&end=2024-01-02T03:04:05Z&limit=5');
  t.true(search.ok);
  if (!search.ok) return;
  t.deepEqual(search.criteria, {
    ip: '127.0.0.1',
    method: 'POST',
    statusCode: 404,
    url: '/config',
    start: 1700000000000,
    end: Date.parse('2024-01-02T03:04:05Z'),
    limit: 5,
    mainRequestsOnly: true,
    hideFavicon: true,
  });
  t.is(search.form.method, 'POST');
  t.is(search.form.end, '2024-01-02T03:04:05Z');
});

test('an invalid filter is named in the message, the form kept to prefill', (t) => {
  const cases: [string, RegExp][] = [
    ['status_code=abc', /^Invalid search filter "status_code" "abc": expected an HTTP status code/],
    ['status_code=99', /"status_code" "99"/],
    ['start=yesterday', /^Invalid search filter "start" "yesterday": expected epoch milliseconds or an ISO 8601 date\.$/],
    ['end=2024-13-45', /"end"/],
    ['limit=0', /"limit" "0": expected an integer from 1 to 1000/],
    ['limit=5000', /"limit"/],
    ['method=G%20T', /"method"/],
    ['status_code=0xx', /"status_code" "0xx"/],
    ['sort=size', /^Invalid search filter "sort" "size": expected time or duration\.$/],
    ['order=up', /"order" "up": expected desc or asc/],
    ['page=0', /"page" "0": expected an integer from 1 to 10000/],
  ];
  for (const [query, message] of cases) {
    const search = parse(query);
    t.false(search.ok, query);
    if (!search.ok) t.regex(search.message, message, query);
  }
  const failed = parse('url=%3Cb%3E&limit=x');
  t.is(failed.form.url, '<b>');
});
