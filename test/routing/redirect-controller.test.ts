import test from 'ava';
import { LoupeResponse } from '../../src/http/response';
import { redirectController } from '../../src/routing/redirect-controller';
import { exchangeFor } from '../helpers/request-data';

function run(query: string, params: Record<string, string>): LoupeResponse {
  const exchange = exchangeFor({ path: '/foo/', query });
  const result = redirectController.handle({ ...exchange.resolveArguments(), params });
  if (!(result instanceof LoupeResponse)) throw new Error('the redirect controller must return a Response');
  return result;
}

test('redirects permanently to the toggled path', (t) => {
  const response = run('', { path: '/foo', permanent: 'true' });
  t.is(response.status, 301);
  t.is(response.headers.get('Location'), 'http://127.0.0.1:8000/foo');
  t.is(response.headers.get('Content-Type'), 'text/html; charset=utf-8');
  t.true(String(response.body).includes('Redirecting to <a href="http://127.0.0.1:8000/foo">http://127.0.0.1:8000/foo</a>.'));
  t.false(response.defaultCacheControl);
});

test('keeps the query string as it was sent', (t) => {
  t.is(run('b=2&a=%20', { path: '/foo', permanent: 'true' }).headers.get('Location'), 'http://127.0.0.1:8000/foo?b=2&a=%20');
});

test('a non-permanent redirect is a 302 and keeps the default Cache-Control', (t) => {
  const response = run('', { path: '/foo' });
  t.is(response.status, 302);
  t.true(response.defaultCacheControl);
});

test('the host is lower-cased, a default port left out, an IPv6 host keeps its brackets; the target is escaped in the page', (t) => {
  const location = (host: string, scheme: 'http' | 'https' = 'http'): string | undefined => {
    const exchange = exchangeFor({ path: '/foo/', scheme, headers: { host } });
    const result = redirectController.handle({ ...exchange.resolveArguments(), params: { path: '/foo', permanent: 'true' } });
    return result instanceof LoupeResponse ? result.headers.get('Location') : undefined;
  };
  t.is(location('Loupe.EXAMPLE:80'), 'http://loupe.example/foo');
  t.is(location('loupe.example:8080'), 'http://loupe.example:8080/foo');
  t.is(location('loupe.example:443', 'https'), 'https://loupe.example/foo');
  t.is(location('[::1]:8000'), 'http://[::1]:8000/foo');
  const exchange = exchangeFor({ path: "/a'b/", query: 'x="<y>"' });
  const page = redirectController.handle({ ...exchange.resolveArguments(), params: { path: "/a'b" } });
  t.true(page instanceof LoupeResponse && String(page.body).includes('http://127.0.0.1:8000/a&#039;b?x=&quot;&lt;y&gt;&quot;'));
});

test('is named as Symfony names its redirect action', (t) => {
  t.is(redirectController.name, 'routing.urlRedirect');
});
