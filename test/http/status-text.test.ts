import test from 'ava';
import { STATUS_TEXT } from '../../src/errors/status-text';
import { statusLine } from '../../src/http/status-text';

test('statusLine gives the code and its reason phrase', (t) => {
  t.is(statusLine(200), '200 OK');
  t.is(statusLine(404), '404 Not Found');
  t.is(statusLine(405), '405 Method Not Allowed');
  t.is(statusLine(413), '413 Content Too Large');
  t.is(statusLine(429), '429 Too Many Requests');
  t.is(statusLine(500), '500 Internal Server Error');
});

test('statusLine of an unknown code says so', (t) => {
  t.is(statusLine(418), "418 I'm a teapot");
  t.is(statusLine(499), '499 Unknown Status');
  t.is(statusLine(599), '599 Unknown Status');
});

test('every known code has a three-digit status and a phrase, and the table is frozen', (t) => {
  for (const [code, text] of Object.entries(STATUS_TEXT)) {
    t.regex(code, /^[1-5]\d\d$/);
    t.not(text, '');
    t.is(statusLine(Number(code)), `${code} ${text}`);
  }
  t.true(Object.isFrozen(STATUS_TEXT));
});
