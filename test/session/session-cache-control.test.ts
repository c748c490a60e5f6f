import test from 'ava';
import { LoupeResponse } from '../../src/http/response';
import { applySessionCacheControl } from '../../src/session/session-cache-control';

const NOW = new Date('2030-01-02T03:04:05Z');

test('the default directives become max-age=0, must-revalidate, private with Expires now', (t) => {
  for (const initial of [undefined, 'no-cache, private']) {
    const response = new LoupeResponse('', 200, initial === undefined ? {} : { 'Cache-Control': initial });
    applySessionCacheControl(response, NOW);
    t.is(response.headers.get('Cache-Control'), 'max-age=0, must-revalidate, private');
    t.is(response.headers.get('Expires'), 'Wed, 02 Jan 2030 03:04:05 GMT');
  }
});

test('a public response loses public and its max-age', (t) => {
  const response = new LoupeResponse('', 200, { 'Cache-Control': 'public, max-age=3600' });
  applySessionCacheControl(response, NOW);
  t.is(response.headers.get('Cache-Control'), 'max-age=0, must-revalidate, private');
});

test('a private max-age is kept, other directives too, Expires follows it', (t) => {
  const response = new LoupeResponse('', 200, { 'Cache-Control': 'max-age=60, no-store' });
  applySessionCacheControl(response, NOW);
  t.is(response.headers.get('Cache-Control'), 'max-age=60, must-revalidate, no-store, private');
  t.is(response.headers.get('Expires'), 'Wed, 02 Jan 2030 03:05:05 GMT');
});
