import test from 'ava';
import { demoRoutes } from '../../demo/routes';
import { DEMO_USERS } from '../../demo/users';
import { LoupeResponse } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { type RouteDefinition } from '../../src/routing/route';
import { type RouteTrace } from '../../src/routing/route-trace';
import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { CredentialsVerifier } from '../../src/security/credentials-verifier';
import { InMemoryUserProvider } from '../../src/security/user-provider';

const demo = demoRoutes(['en', 'fr', 'de'], new CredentialsVerifier(new InMemoryUserProvider(DEMO_USERS)));
const router = new UrlMatcherRouter(demo);
const controller: Controller = { name: 'test.show', handle: () => new LoupeResponse('test') };

/** Each route's `name: log`, in order. */
const logs = (trace: RouteTrace): string[] => trace.routes.map((route) => `${route.name}: ${route.log}`);
/** The log of route `name` in `trace`. */
const logOf = (trace: RouteTrace, name: string): { level: number; log: string } | undefined => trace.routes.find((route) => route.name === name);

test('a 404 lists every demo route in order, each "Path … does not match" with its pattern', (t) => {
  const trace = router.trace('GET', '/nope');
  t.deepEqual(
    trace.routes.map((route) => route.name),
    demo.map((route) => route.name),
  );
  t.deepEqual(trace.routes[1], { name: 'hello', path: '/hello/{name}', level: 0, log: 'Path "/hello/{name}" does not match' });
  t.true(trace.routes.every((route) => route.level === 0));
  t.is(trace.omitted, 0);
});

test('a 405 (POST to a GET route) almost matches with Symfony\'s wording, listing the required methods', (t) => {
  const trace = router.trace('POST', '/hello/anna');
  t.deepEqual(logOf(trace, 'hello'), { name: 'hello', path: '/hello/{name}', level: 1, log: 'Method "POST" does not match any of the required methods (GET)' });
  t.is(trace.routes.filter((route) => route.level !== 0).length, 1, logs(trace).join('\n'));
  // Every route was tried: the 405 is decided only once none answers POST.
  t.is(trace.routes.length, demo.length);
});

test('a requirement that fails on its own is named with its pattern', (t) => {
  const trace = router.trace('GET', '/it/hello/anna');
  t.deepEqual(logOf(trace, 'hello_localized'), { name: 'hello_localized', path: '/{_locale}/hello/{name}', level: 1, log: 'Requirement for "_locale" does not match (en|fr|de)' });
  const numbered = new UrlMatcherRouter([
    ...demo,
    { name: 'page', path: '/page/{n}.{_format}', requirements: { _format: 'html|json', n: '^\\d+$' }, controller },
  ]);
  // Anchors removed, as Symfony shows them; the first failing requirement in declaration order.
  t.is(logOf(numbered.trace('GET', '/page/abc.html'), 'page')?.log, 'Requirement for "n" does not match (\\d+)');
  t.is(logOf(numbered.trace('GET', '/page/abc.xml'), 'page')?.log, 'Requirement for "_format" does not match (html|json)');
  t.is(logOf(numbered.trace('GET', '/page/1.xml/'), 'page')?.log, 'Requirement for "_format" does not match (html|json)', 'the trailing slash toggled counts');
  t.is(logOf(numbered.trace('GET', '/pages/1.html'), 'page')?.log, 'Path "/page/{n}.{_format}" does not match');
});

test('a trailing-slash near miss says why it was not redirected: the method, or the route\'s methods', (t) => {
  t.deepEqual(logOf(router.trace('POST', '/api/echo/'), 'api_echo'), {
    name: 'api_echo',
    path: '/api/echo',
    level: 1,
    log: 'Trailing slash does not match: a POST request is not redirected to "/api/echo"',
  });
  t.is(logOf(router.trace('GET', '/login/'), 'login')?.log, 'Trailing slash does not match, and method "GET" does not match any of the required methods (POST)');
  t.is(logOf(router.trace('DELETE', '/boom/'), 'boom')?.log, 'Trailing slash does not match: a DELETE request is not redirected to "/boom"');
});

test('a route answering the exact path, even for other methods only, wins over a redirect, and the trace says so', (t) => {
  const routes: RouteDefinition[] = [
    { name: 'without_slash', path: '/x', methods: ['GET'], controller },
    { name: 'with_slash_post', path: '/x/', methods: ['POST'], controller },
  ];
  const trace = new UrlMatcherRouter(routes).trace('GET', '/x/');
  t.deepEqual(logs(trace), [
    'without_slash: Trailing slash does not match: no redirect to "/x", as a route answers "/x/" for other methods',
    'with_slash_post: Method "GET" does not match any of the required methods (POST)',
  ]);
  const exact = new UrlMatcherRouter([routes[0] as RouteDefinition, { name: 'with_slash', path: '/x/', controller }]).trace('GET', '/x/');
  t.deepEqual(logs(exact), ['without_slash: Trailing slash does not match: no redirect to "/x", as a route answers "/x/"', 'with_slash: Route matches!']);
});

test('the trace stops at the route that answers, "Route matches!", also for a redirect', (t) => {
  t.deepEqual(logs(router.trace('GET', '/hello/anna')), ['home: Path "/" does not match', 'hello: Route matches!']);
  t.deepEqual(logs(router.trace('GET', '/hello/anna/')), ['home: Path "/" does not match', 'hello: Route matches!']);
  t.deepEqual(logs(router.trace('HEAD', '/')), ['home: Route matches!']);
  // Decoded before matching, as match() does.
  t.is(router.trace('GET', '/%68ello/anna').routes.at(-1)?.log, 'Route matches!');
});

test('the trace agrees with match(): the route that matches is the one match() answers, and only a failure has none', (t) => {
  const paths = ['/', '/hello/anna', '/hello/anna/', '/fr/hello/x', '/it/hello/x', '/api/echo', '/api/echo/', '/boom', '/boom/async/', '/login', '/login/', '/nope', '//', '/hello/', '/boom%2F', '/hello/anna%2F', '/hello/anna%2F/'];
  for (const method of ['GET', 'HEAD', 'POST', 'PUT']) {
    for (const path of paths) {
      const matched = router.trace(method, path).routes.filter((route) => route.level === 2);
      const answer = router.match(method, path);
      const expected = answer.matched ? [answer.name] : [];
      t.deepEqual(
        matched.map((route) => route.name),
        expected,
        `${method} ${path}`,
      );
    }
  }
});

test('a limit lists the first routes tried and counts the others', (t) => {
  const trace = router.trace('GET', '/nope', 3);
  t.deepEqual(
    trace.routes.map((route) => route.name),
    ['home', 'hello', 'hello_localized'],
  );
  t.is(trace.omitted, demo.length - 3);
  t.deepEqual(router.trace('GET', '/hello/x', 1), { routes: [{ name: 'home', path: '/', level: 0, log: 'Path "/" does not match' }], omitted: 1 });
});

test('describe answers a route\'s pattern, methods, defaults and requirements, or undefined', (t) => {
  t.deepEqual(router.describe('hello_localized'), {
    name: 'hello_localized',
    path: '/{_locale}/hello/{name}',
    methods: ['GET'],
    defaults: {},
    requirements: { _locale: 'en|fr|de' },
  });
  t.is(router.describe('nope'), undefined);
  t.is(router.describe('constructor'), undefined);
});
