import test from 'ava';
import { rawUrlEncode } from '../../src/http/raw-url-encode';

test('keeps only A-Za-z0-9-_.~, like PHP rawurlencode', (t) => {
  t.is(rawUrlEncode('AZaz09-_.~'), 'AZaz09-_.~');
  t.is(rawUrlEncode(`!'()* +/:"`), '%21%27%28%29%2A%20%2B%2F%3A%22');
});

test('encodes the UTF-8 bytes with upper-case hex', (t) => {
  t.is(rawUrlEncode('é€😀'), '%C3%A9%E2%82%AC%F0%9F%98%80');
  t.is(rawUrlEncode('No route found for "GET http://127.0.0.1:8000/x"'), 'No%20route%20found%20for%20%22GET%20http%3A%2F%2F127.0.0.1%3A8000%2Fx%22');
});

test('control characters are encoded, so the header value cannot be split', (t) => {
  t.is(rawUrlEncode('a\r\nb\u0000'), 'a%0D%0Ab%00');
});

test('a lone surrogate does not throw (encodeURIComponent would)', (t) => {
  t.is(rawUrlEncode('\uD800'), '%EF%BF%BD');
});
