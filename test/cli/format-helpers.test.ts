import test from 'ava';
import { formatDuration } from '../../src/cli/format/format-duration';
import { formatErrors } from '../../src/profiler/ui/cli/format/format-errors';
import { escapeControl, escapeControlKeepingLines, escapeJsonControl } from '../../src/log/escape-control';
import { formatSummaryTable } from '../../src/profiler/ui/cli/format/format-summary-table';
import { formatTable } from '../../src/cli/format/format-table';
import { formatTimeline } from '../../src/profiler/ui/cli/format/format-timeline';
import { type FlatError } from '../../src/error-handler/flatten-error';

test('formatDuration picks a precision that fits the size', (t) => {
  t.is(formatDuration(0.4234), '0.42 ms');
  t.is(formatDuration(12.34), '12.3 ms');
  t.is(formatDuration(1250), '1.25 s');
  t.is(formatDuration(Number.NaN), '?');
});

test('formatTable aligns columns under a rule and leaves no trailing blanks', (t) => {
  t.is(formatTable(['A', 'Long', 'Z'], [['xyz', 'b', 'last'], ['x', 'bb', '']]), ['A    Long  Z', '---  ----  ----', 'xyz  b     last', 'x    bb', ''].join('\n'));
});

test('formatSummaryTable prints the time as ISO 8601, the queries with their N+1 mark, and a dash for no parent', (t) => {
  const text = formatSummaryTable([
    { ok: true, summary: { token: 'abc123', parent: null, ip: '::1', method: 'GET', url: 'http://h/a', time: Date.UTC(2025, 0, 2, 3, 4, 5, 6), statusCode: 404, duration: 12.34, queries: 12, nPlusOne: 1 } },
    { ok: true, summary: { token: 'def456', parent: 'abc123', ip: '::1', method: 'GET', url: 'http://h/a', time: Date.UTC(2025, 0, 2, 3, 4, 5, 9), statusCode: 404 } },
    { ok: true, summary: { token: 'fed789', parent: null, ip: '::1', method: 'GET', url: 'http://h/a', time: Date.UTC(2025, 0, 2, 3, 4, 5, 9), statusCode: 200, duration: 1, queries: 2, nPlusOne: 0 } },
  ]);
  const [header, , first, second, third] = text.split('\n');
  t.is(header, 'Token   Status  Method  URL         IP   Time                      Duration  Queries  Parent');
  t.is(first, 'abc123  404     GET     http://h/a  ::1  2025-01-02T03:04:05.006Z  12.3 ms   12 N+1   -');
  // A row stored before durations and queries were indexed has neither.
  t.is(second, 'def456  404     GET     http://h/a  ::1  2025-01-02T03:04:05.009Z  -         -        abc123');
  t.is(third, 'fed789  200     GET     http://h/a  ::1  2025-01-02T03:04:05.009Z  1.00 ms   2        -');
});

test('formatTimeline places each phase on one time axis, every phase visible', (t) => {
  const lines = formatTimeline(
    [
      { name: 'kernel.request', start: 0, duration: 5 },
      { name: 'kernel.response', start: 5, duration: 0.001 },
      { name: 'kernel.terminate', start: 5, duration: 5 },
    ],
    6,
    10,
  );
  t.deepEqual(lines, [
    'kernel.request    +0.00 ms  5.00 ms  |#####     |',
    'kernel.response   +5.00 ms  0.00 ms  |     #    |',
    'kernel.terminate  +5.00 ms  5.00 ms  |     #####|',
  ]);
});

const frame = (fn: string, line: number) => ({ function: fn, file: '/app/src/x.ts', line, column: 3 });

test('formatErrors shows each error, its chain and its first frames', (t) => {
  const error: FlatError = {
    class: 'NotFoundHttpError',
    message: 'No route found for "GET http://h/config.yaml"',
    code: 'LOUPE_ERR_HTTP_NOT_FOUND',
    statusCode: 404,
    statusText: 'Not Found',
    headers: {},
    trace: [frame('a', 1), frame('b', 2), frame('c', 3), frame('d', 4), frame('e', 5)],
    previous: [{ class: 'ResourceNotFoundError', message: 'No routes found for "/config.yaml/".', code: null, statusCode: 404, statusText: 'Not Found', headers: {}, trace: [frame('m', 9)] }],
  };
  t.deepEqual(formatErrors([error]), [
    '1) NotFoundHttpError [LOUPE_ERR_HTTP_NOT_FOUND]: 404 Not Found',
    '     No route found for "GET http://h/config.yaml"',
    '       at a (/app/src/x.ts:1:3)',
    '       at b (/app/src/x.ts:2:3)',
    '       at c (/app/src/x.ts:3:3)',
    '       … 2 more frames (--json shows them)',
    '   Caused by: ResourceNotFoundError: 404 Not Found',
    '     No routes found for "/config.yaml/".',
    '       at m (/app/src/x.ts:9:3)',
  ]);
  t.deepEqual(formatErrors([]), []);
});

test('formatSummaryTable keeps an unreadable row in its place, escapes every value and survives a time no date has', (t) => {
  const text = formatSummaryTable([
    { ok: true, summary: { token: 'abc123', parent: null, ip: '::1', method: 'GET', url: 'http://h/\u001b[2J\n', time: 1e20, statusCode: 200 } },
    { ok: false, token: 'bad\u001b]0;x\u0007', error: 'it is not JSON' },
    { ok: true, summary: { token: 'def456', parent: null, ip: '::1', method: 'GET\u009b', url: 'http://h/b', time: 0, statusCode: 200 } },
  ]);
  t.is(
    text,
    [
      'Token   Status  Method   URL                   IP   Time                      Duration  Queries  Parent',
      '------  ------  -------  --------------------  ---  ------------------------  --------  -------  ------',
      'abc123  200     GET      http://h/\\x1b[2J\\x0a  ::1  100000000000000000000     -         -        -',
      '(unreadable row bad\\x1b]0;x\\x07: it is not JSON)',
      'def456  200     GET\\x9b  http://h/b            ::1  1970-01-01T00:00:00.000Z  -         -        -',
      '',
    ].join('\n'),
  );
});

test('escapeControl shows C0, DEL and C1 as \\xHH; the JSON variant keeps JSON valid', (t) => {
  t.is(escapeControl('a\u001b[2Jb\u0007\t\n\u007f\u0085\u009bc é €'), 'a\\x1b[2Jb\\x07\\x09\\x0a\\x7f\\x85\\x9bc é €');
  t.is(escapeControlKeepingLines('a\u001bb\nc\r'), 'a\\x1bb\nc\\x0d');
  const json = escapeJsonControl(JSON.stringify({ url: '/\u001b]0;t\u0007\u009b\u007f' }));
  t.is(json, '{"url":"/\\u001b]0;t\\u0007\\u009b\\u007f"}');
  t.deepEqual(JSON.parse(json), { url: '/\u001b]0;t\u0007\u009b\u007f' });
});
