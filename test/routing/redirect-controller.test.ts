import test from 'ava';
import { Response } from '../../src/http/response';
import { redirectController } from '../../src/routing/redirect-controller';
import { exchangeFor } from '../helpers/request-data';

function run(query: string, params: Record<string, string>): Response {
  const exchange = exchangeFor({ path: '/foo/', query });
  const result = redirectController.handle({ ...exchange.resolveArguments(), params });
  if (!(result instanceof Response)) throw new Error('the redirect controller must return a Response');
  return result;
}

test('redirects permanently to the toggled path', (t) => {
  const response = run('', { path: '/foo', permanent: 'true' });
  t.is(response.status, 301);
  t.is(response.headers.get('Location'), '/foo');
});

test('keeps the query string as it was sent', (t) => {
  t.is(run('b=2&a=%20', { path: '/foo', permanent: 'true' }).headers.get('Location'), '/foo?b=2&a=%20');
});

test('a non-permanent redirect is a 302', (t) => {
  t.is(run('', { path: '/foo' }).status, 302);
});

test('is named as Symfony names its redirect action', (t) => {
  t.is(redirectController.name, 'Loupe\\Routing\\RedirectController::urlRedirectAction');
});
