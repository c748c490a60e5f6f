import test from 'ava';
import { formatDuration } from '../../src/cli/format/format-duration';
import { formatErrors } from '../../src/cli/format/format-errors';
import { formatSummaryTable } from '../../src/cli/format/format-summary-table';
import { formatTable } from '../../src/cli/format/format-table';
import { formatTimeline } from '../../src/cli/format/format-timeline';
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

test('formatSummaryTable prints the time as ISO 8601 and a dash for no parent', (t) => {
  const text = formatSummaryTable([
    { token: 'abc123', parent: null, ip: '::1', method: 'GET', url: 'http://h/a', time: Date.UTC(2025, 0, 2, 3, 4, 5, 6), statusCode: 404 },
    { token: 'def456', parent: 'abc123', ip: '::1', method: 'GET', url: 'http://h/a', time: Date.UTC(2025, 0, 2, 3, 4, 5, 9), statusCode: 404 },
  ]);
  const [header, , first, second] = text.split('\n');
  t.is(header, 'Token   Status  Method  URL         IP   Time                      Parent');
  t.is(first, 'abc123  404     GET     http://h/a  ::1  2025-01-02T03:04:05.006Z  -');
  t.is(second, 'def456  404     GET     http://h/a  ::1  2025-01-02T03:04:05.009Z  abc123');
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
