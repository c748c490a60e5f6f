import test from 'ava';
import { formatOfMediaType, preferredFormat } from '../../src/error-handler/negotiate-format';
import { LoupeRequest } from '../../src/http/request';
import { requestData } from '../helpers/request-data';

function request(headers: Record<string, string>): LoupeRequest {
  return new LoupeRequest(requestData({ path: '/x', headers }), 'en');
}

test('no Accept header, or only */*, means html', (t) => {
  t.is(preferredFormat(request({})), 'html');
  t.is(preferredFormat(request({ accept: '*/*' })), 'html');
  t.is(preferredFormat(request({ accept: 'image/png, */*;q=0.8' })), 'html');
});

test('the first known media type wins', (t) => {
  t.is(preferredFormat(request({ accept: 'application/json' })), 'json');
  t.is(preferredFormat(request({ accept: 'application/x-json' })), 'json');
  t.is(preferredFormat(request({ accept: 'image/webp, application/json, text/html' })), 'json');
  t.is(preferredFormat(request({ accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' })), 'html');
  t.is(preferredFormat(request({ accept: 'text/plain' })), 'txt');
  t.is(preferredFormat(request({ accept: 'application/xml' })), 'xml');
});

test('q-values order the media types; equal q keeps header order', (t) => {
  t.is(preferredFormat(request({ accept: 'text/html;q=0.5, application/json;q=0.9' })), 'json');
  t.is(preferredFormat(request({ accept: 'application/json;q=0.4, text/html;q=0.8' })), 'html');
  t.is(preferredFormat(request({ accept: 'text/html;q=0.7, application/json;q=0.7' })), 'html');
  t.is(preferredFormat(request({ accept: 'application/json;q=0.7, text/html;q=0.7' })), 'json');
  t.is(preferredFormat(request({ accept: 'text/html;q=0.3, application/json' })), 'json');
});

test('q=0 means not acceptable', (t) => {
  t.is(preferredFormat(request({ accept: 'application/json;q=0' })), 'html');
});

test('media type parameters and case do not matter', (t) => {
  t.is(preferredFormat(request({ accept: 'Application/JSON; charset=utf-8' })), 'json');
  t.is(preferredFormat(request({ accept: 'text/html; level="1,2";q=0.1, application/json;q=0.5' })), 'json');
});

test('the _format attribute comes before Accept', (t) => {
  const req = request({ accept: 'text/html' });
  req.attributes.set('_format', 'json');
  t.is(preferredFormat(req), 'json');
});

test('formatOfMediaType maps known types only', (t) => {
  t.is(formatOfMediaType('application/xhtml+xml'), 'html');
  t.is(formatOfMediaType('*/*'), null);
  t.is(formatOfMediaType('application/problem+json'), null);
});

test('the same Accept header gives the same format every time, also past the headers kept', (t) => {
  const headers = Array.from({ length: 300 }, (_, index) => (index % 2 === 0 ? `application/json;v=${index}` : `text/plain;v=${index}, application/json`));
  for (let round = 0; round < 2; round++) {
    headers.forEach((accept, index) => t.is(preferredFormat(request({ accept })), index % 2 === 0 ? 'json' : 'txt'));
  }
  const long = `${'x/y, '.repeat(200)}application/json`;
  t.is(preferredFormat(request({ accept: long })), 'json');
  t.is(preferredFormat(request({ accept: long })), 'json');
});
