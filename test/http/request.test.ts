import test from 'ava';
import { BadRequestHttpError } from '../../src/errors/http-error';
import { LoupeRequest } from '../../src/http/request';
import { type RequestData } from '../../src/http/request-data';
import { requestData } from '../helpers/request-data';

function requestFor(overrides: Partial<RequestData> = {}): LoupeRequest {
  return new LoupeRequest(requestData(overrides), 'en');
}

function withHost(host: string, overrides: Partial<RequestData> = {}): LoupeRequest {
  return requestFor({ ...overrides, headers: { host } });
}

test('the method is the one sent unless another is given', (t) => {
  const data = requestData({ method: 'POST' });
  t.is(new LoupeRequest(data, 'en').method, 'POST');
  t.is(new LoupeRequest(data, 'en', 'GET').method, 'GET');
  t.is(new LoupeRequest(data, 'en').path, '/');
});

test('the host is lower-cased and loses its port', (t) => {
  t.is(withHost('Example.COM:8080').host, 'example.com');
  t.is(withHost('  example.com  ').host, 'example.com');
  t.is(withHost('[::1]:8000').host, '[::1]');
  t.is(withHost('my_host.sub-domain.example.').host, 'my_host.sub-domain.example.');
});

for (const host of ['exa mple.com', 'a/b', 'example.com@evil.test', 'example.com:80/path']) {
  test(`an invalid Host "${host}" is a 400 the first time, then the empty string`, (t) => {
    const request = withHost(host);
    const error = t.throws(() => request.host, { instanceOf: BadRequestHttpError });
    t.is(error?.code, 'LOUPE_ERR_HTTP_INVALID_HOST');
    t.is(error?.statusCode, 400);
    t.is(request.host, '');
    t.is(request.host, '');
  });
}

test('the host and port are split and checked as the Host regular expressions do, on every shape of name', (t) => {
  // The checks a plain name (letters, digits, hyphens, single dots) takes, against the ones every Host used to.
  const HOST_ALLOWED = /(?:^\[)?[a-zA-Z0-9-:\]_]+\.?/g;
  // Hosts with no port or a port of digits; the ports Loupe refuses and Symfony does not are below.
  const hosts = ['127.0.0.1:8000', 'example.com', 'example.com.', '.example.com', 'a..b', 'a.-b', '-a', ':80', '[::1]', '[::1]:80', '[', 'a[b', 'x_y', 'a b', 'a.b.c:65535'];
  for (const raw of hosts) {
    const host = raw.replace(/:\d+$/, '').toLowerCase();
    const valid = host === '' || host.replace(HOST_ALLOWED, '') === '';
    const request = withHost(raw, { serverPort: 9000 });
    if (valid) t.is(request.host, host === '' ? '127.0.0.1' : host, raw);
    else t.throws(() => request.host, { instanceOf: BadRequestHttpError }, raw);
    const match = /:(\d+)$/.exec(raw);
    t.is(withHost(raw, { serverPort: 9000 }).port, match?.[1] !== undefined ? Number(match[1]) : 80, raw);
  }
});

for (const host of ['127.0.0.1:8400.evil.test', 'localhost:80abc', 'a:b', 'a.b.c:65536', 'a:1:2', '[::1]x', '[::1]:8o', 'example.com: 80']) {
  test(`a Host whose port is not a port, "${host}", is a 400 naming it whole (Symfony would keep it as the host)`, (t) => {
    const request = withHost(host, { serverPort: 9000 });
    t.throws(() => request.host, { instanceOf: BadRequestHttpError, message: `Invalid Host "${host.toLowerCase()}".` });
    t.is(withHost(host, { serverPort: 9000 }).port, 80);
  });
}

test('an empty port is the scheme default, and a bare IPv6 address is a host without a port', (t) => {
  t.is(withHost('example.com:').host, 'example.com');
  t.is(withHost('example.com:', { scheme: 'https' }).port, 443);
  t.is(withHost('::1', { serverPort: 9000 }).host, '::1');
  t.is(withHost('::1', { serverPort: 9000 }).port, 80);
  t.is(withHost('[::1]:').port, 80);
});

test('the invalid-host message names the host lower-cased, without its port, as Symfony does', (t) => {
  t.throws(() => withHost('EXA MPLE.com:8080').host, { instanceOf: BadRequestHttpError, message: 'Invalid Host "exa mple.com".' });
});

test('a duplicate of a request whose host was refused does not throw again', (t) => {
  const request = withHost('exa mple.com');
  t.throws(() => request.host);
  const copy = request.duplicate('GET');
  t.is(copy.host, '');
});

test('a duplicate made before the host was read still validates it', (t) => {
  const copy = withHost('exa mple.com').duplicate('GET');
  t.throws(() => copy.host, { instanceOf: BadRequestHttpError, message: 'Invalid Host "exa mple.com".' });
});

test('the port comes from the Host header, else from the port the server listens on', (t) => {
  t.is(withHost('example.com:8080', { serverPort: 9000 }).port, 8080);
  t.is(withHost('[::1]:3000', { serverPort: 9000 }).port, 3000);
  t.is(new LoupeRequest({ ...requestData({ serverPort: 9000 }), headers: {} }, 'en').port, 9000);
});

test('schemeAndHttpHost leaves out the default port of the scheme', (t) => {
  t.is(withHost('example.com:80').schemeAndHttpHost, 'http://example.com');
  t.is(withHost('example.com:8080').schemeAndHttpHost, 'http://example.com:8080');
  t.is(withHost('example.com:443', { scheme: 'https' }).schemeAndHttpHost, 'https://example.com');
  t.is(withHost('example.com:80', { scheme: 'https' }).schemeAndHttpHost, 'https://example.com:80');
  t.is(withHost('example.com:443').schemeAndHttpHost, 'http://example.com:443');
});

test('uriForPath is absolute and has no query string', (t) => {
  const request = requestFor({ path: '/hello', query: 'a=b' });
  t.is(request.uriForPath('/_profiler/abc123'), 'http://127.0.0.1:8000/_profiler/abc123');
});

test('uri is absolute, keeps the raw path and adds the query string when there is one', (t) => {
  t.is(requestFor({ path: '/hello/J%C3%BCrgen', query: 'x=1&y=%20' }).uri, 'http://127.0.0.1:8000/hello/J%C3%BCrgen?x=1&y=%20');
  t.is(requestFor({ path: '/hello' }).uri, 'http://127.0.0.1:8000/hello');
});

test('queryParams parses the query string', (t) => {
  const params = requestFor({ query: 'a=1&a=2&b=x%20y&c=d+e' }).queryParams;
  t.deepEqual(params.getAll('a'), ['1', '2']);
  t.is(params.get('b'), 'x y');
  t.is(params.get('c'), 'd e');
  t.is(params.get('missing'), null);
  t.is([...requestFor().queryParams].length, 0);
});

test('cookies are parsed from the Cookie header', (t) => {
  t.deepEqual(requestFor({ headers: { cookie: 'sid=abc; name=J%C3%BCrgen' } }).cookies, { sid: 'abc', name: 'Jürgen' });
  t.deepEqual(requestFor().cookies, {});
});

test('header() ignores the case of the name', (t) => {
  const request = requestFor({ headers: { 'accept-language': 'fr' } });
  t.is(request.header('Accept-Language'), 'fr');
  t.is(request.header('ACCEPT-LANGUAGE'), 'fr');
  t.is(request.header('accept-language'), 'fr');
  t.is(request.header('X-Missing'), undefined);
});

test('duplicate keeps the data and the locales, takes the method given and has its own attributes', (t) => {
  const request = new LoupeRequest(requestData({ method: 'POST', path: '/login' }), 'en');
  request.locale = 'fr';
  request.defaultLocale = 'de';
  request.attributes.set('_route', 'login');
  const copy = request.duplicate('GET');
  t.is(copy.data, request.data);
  t.is(copy.method, 'GET');
  t.is(copy.path, '/login');
  t.is(copy.locale, 'fr');
  t.is(copy.defaultLocale, 'de');
  t.is(copy.attributes.size, 0);
  copy.attributes.set('exception', new Error('x'));
  t.false(request.attributes.has('exception'));
  t.is(request.attributes.get('_route'), 'login');
});

test('a new request starts in its default locale', (t) => {
  const request = new LoupeRequest(requestData(), 'de');
  t.is(request.locale, 'de');
  t.is(request.defaultLocale, 'de');
});
