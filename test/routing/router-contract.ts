import test, { type ExecutionContext } from 'ava';
import { LoupeError } from '../../src/errors/loupe-error';
import { LoupeResponse } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { redirectController } from '../../src/routing/redirect-controller';
import { type RequestContext } from '../../src/routing/request-context';
import { type RouteDefinition } from '../../src/routing/route';
import { type RouteMatch, type RouteMiss, type Router } from '../../src/routing/router';
import { RouteTraceLevel } from '../../src/routing/route-trace';
import { isTraceable, traceOf, type TraceableRouter } from '../../src/routing/traceable-router';

/** Builds the router under test from an ordered list of routes. */
export type RouterFactory = (routes: readonly RouteDefinition[]) => TraceableRouter;

const controller = (name: string): Controller => ({ name, handle: () => new LoupeResponse(name) });
const route = (name: string, path: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({ name, path, controller: controller(name), ...extra });

/** The route `router` answers, or an error that fails the test naming the miss. */
function matchOf(router: Router, method: string, path: string): RouteMatch {
  const answer = router.match(method, path);
  if (!answer.matched) throw new Error(`${method} ${path} is a miss (allowed methods: ${answer.allowedMethods.join(', ') || 'none'}), not a match`);
  return answer;
}

/** The miss `router` answers; a match fails the test. */
function missOf(t: ExecutionContext, router: Router, method: string, path: string): RouteMiss | undefined {
  const answer = router.match(method, path);
  if (!answer.matched) return answer;
  t.fail(`${method} ${path} matched route "${answer.name}", a miss was expected`);
  return undefined;
}

/** The path a 404 names as the last it looked for (Symfony's ResourceNotFoundException message); fails on a match or a 405. */
function notFound(t: ExecutionContext, router: Router, method: string, path: string): string | undefined {
  const miss = missOf(t, router, method, path);
  if (miss === undefined) return undefined;
  t.deepEqual(miss.allowedMethods, [], `${method} ${path} is a 404, not a 405`);
  return miss.path ?? path;
}

/** The methods a 405 lists; fails on a match or a 404. */
function notAllowed(t: ExecutionContext, router: Router, method: string, path: string): readonly string[] | undefined {
  const miss = missOf(t, router, method, path);
  t.true(miss === undefined || miss.allowedMethods.length > 0, `${method} ${path} is a 405, not a 404`);
  return miss?.allowedMethods;
}

/**
 * The behaviour every Router implementation must have: Symfony's RedirectableCompiledUrlMatcher
 * and UrlGenerator semantics. Each implementation's test file calls this with its factory.
 */
export function routerContract(label: string, create: RouterFactory): void {
  test(`${label}: a static route matches its exact path, with its controller`, (t) => {
    const home = route('home', '/');
    const router = create([home, route('about', '/about')]);
    t.deepEqual(matchOf(router, 'GET', '/'), { matched: true, name: 'home', params: {}, controller: home.controller });
    t.is(matchOf(router, 'GET', '/about').name, 'about');
    notFound(t, router, 'GET', '/about/us');
  });

  test(`${label}: placeholders become parameters, with defaults and extra defaults`, (t) => {
    const router = create([route('post', '/blog/{year}/{slug}', { defaults: { year: '2024', _format: 'html' } })]);
    t.deepEqual(matchOf(router, 'GET', '/blog/2023/hello-world').params, { year: '2023', slug: 'hello-world', _format: 'html' });
    // `year` is not trailing, so its default does not make it optional.
    notFound(t, router, 'GET', '/blog/hello-world');
  });

  test(`${label}: requirements restrict placeholders; anchors in them are implied`, (t) => {
    const router = create([
      route('page', '/page/{n}', { requirements: { n: '\\d+' } }),
      route('lang', '/{_locale}/home', { requirements: { _locale: '^(en|fr)$' } }),
      route('slug', '/page/{slug}'),
    ]);
    t.deepEqual(matchOf(router, 'GET', '/page/42'), { matched: true, name: 'page', params: { n: '42' }, controller: matchOf(router, 'GET', '/page/1').controller });
    t.is(matchOf(router, 'GET', '/page/abc').name, 'slug');
    t.is(matchOf(router, 'GET', '/fr/home').name, 'lang');
    t.is(notFound(t, router, 'GET', '/de/home'), '/de/home/');
    // The default requirement stops at the next separator and at `/`.
    const formats = create([route('file', '/files/{name}.{_format}')]);
    t.deepEqual(matchOf(formats, 'GET', '/files/report.pdf').params, { name: 'report', _format: 'pdf' });
    notFound(t, formats, 'GET', '/files/a/b.pdf');
  });

  test(`${label}: a trailing placeholder with a default is optional`, (t) => {
    const router = create([
      route('blog', '/blog/{page}', { defaults: { page: '1' }, requirements: { page: '\\d+' } }),
      route('archive', '/archive/{year}/{month}', { defaults: { year: '2024', month: '01' } }),
      route('list', '/{page}', { defaults: { page: 'index' } }),
    ]);
    t.deepEqual(matchOf(router, 'GET', '/blog').params, { page: '1' });
    t.deepEqual(matchOf(router, 'GET', '/blog/7').params, { page: '7' });
    t.deepEqual(matchOf(router, 'GET', '/archive').params, { year: '2024', month: '01' });
    t.deepEqual(matchOf(router, 'GET', '/archive/2020').params, { year: '2020', month: '01' });
    t.deepEqual(matchOf(router, 'GET', '/archive/2020/12').params, { year: '2020', month: '12' });
    // A lone optional placeholder keeps its slash: `/` is the route with its default.
    t.deepEqual(matchOf(router, 'GET', '/').params, { page: 'index' });
    t.deepEqual(matchOf(router, 'GET', '/other').params, { page: 'other' });
  });

  test(`${label}: the path is percent-decoded before matching, as Symfony's rawurldecode`, (t) => {
    const router = create([route('hello', '/hello/{name}')]);
    t.deepEqual(matchOf(router, 'GET', '/hello/J%C3%BCrgen').params, { name: 'Jürgen' });
    t.is(matchOf(router, 'GET', '/%68ello/ada').name, 'hello');
    // An encoded slash is a real slash: it ends the segment, so {name} does not match…
    t.is(notFound(t, router, 'GET', '/hello/a%2Fb'), '/hello/a%2Fb/');
    // …and an encoded trailing slash is no trailing slash to toggle: the slash is added to the path
    // as sent, `/hello/ada%2F/`, which decodes to `/hello/ada//` (CompiledUrlMatcherTrait::match()).
    t.is(notFound(t, router, 'GET', '/hello/ada%2F'), '/hello/ada%2F/');
    t.deepEqual(matchOf(router, 'GET', '/hello/an%20na/').params, { path: '/hello/an%20na', permanent: 'true' });
    t.deepEqual(matchOf(router, 'GET', '/hello/a+b%20c').params, { name: 'a+b c' });
    // Invalid escapes stay as they were sent; valid ones around them are still decoded.
    t.deepEqual(matchOf(router, 'GET', '/hello/100%25%ZZ%E2%82%AC').params, { name: '100%%ZZ€' });
    t.deepEqual(matchOf(router, 'GET', '/hello/%C3').params, { name: '%C3' });
  });

  test(`${label}: the first route matching path and method wins`, (t) => {
    const router = create([route('first', '/x/{id}'), route('second', '/x/{id}'), route('post', '/y', { methods: ['POST'] }), route('get', '/y', { methods: ['GET'] })]);
    t.is(matchOf(router, 'GET', '/x/1').name, 'first');
    t.is(matchOf(router, 'GET', '/y').name, 'get');
    t.is(matchOf(router, 'POST', '/y').name, 'post');
  });

  test(`${label}: HEAD is matched as GET; no methods accepts every method`, (t) => {
    const router = create([
      route('get', '/get', { methods: ['get'] }),
      route('head', '/head', { methods: ['HEAD'] }),
      route('any', '/any'),
      route('post', '/post', { methods: ['POST'] }),
    ]);
    t.is(matchOf(router, 'HEAD', '/get').name, 'get');
    t.is(matchOf(router, 'head', '/get').name, 'get');
    t.is(matchOf(router, 'HEAD', '/head').name, 'head');
    t.deepEqual(notAllowed(t, router, 'GET', '/head'), ['HEAD']);
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'PURGE']) t.is(matchOf(router, method, '/any').name, 'any');
    // HEAD is not added to the Allow list for a GET route, nor GET for HEAD.
    t.deepEqual(notAllowed(t, router, 'HEAD', '/post'), ['POST']);
    t.deepEqual(notAllowed(t, router, 'POST', '/get'), ['GET']);
  });

  test(`${label}: a path matched only for other methods lists them all, upper-cased, once, in route order`, (t) => {
    const router = create([
      route('a', '/x', { methods: ['post'] }),
      route('b', '/x', { methods: ['PUT', 'POST'] }),
      route('other', '/y', { methods: ['OPTIONS'] }),
      route('c', '/{any}', { methods: ['PATCH', 'GET'] }),
    ]);
    t.deepEqual(notAllowed(t, router, 'DELETE', '/x'), ['POST', 'PUT', 'PATCH', 'GET']);
    // GET is answered by `c` after `a` and `b` declined: a later full match beats the 405.
    t.is(matchOf(router, 'GET', '/x').name, 'c');
    t.deepEqual(notAllowed(t, router, 'DELETE', '/y'), ['OPTIONS', 'PATCH', 'GET']);
  });

  test(`${label}: unmatched paths name the toggled path for GET and HEAD, the original otherwise`, (t) => {
    const router = create([route('foo', '/foo', { methods: ['POST'] }), route('bar', '/bar/')]);
    const lookedFor = (method: string, path: string): string | undefined => notFound(t, router, method, path);
    t.is(lookedFor('GET', '/config.yaml'), '/config.yaml/');
    t.is(lookedFor('HEAD', '/config.yaml'), '/config.yaml/');
    t.is(lookedFor('GET', '/nothing/'), '/nothing');
    t.is(lookedFor('GET', '/nothing//'), '/nothing');
    t.is(lookedFor('POST', '/nothing'), '/nothing');
    t.is(lookedFor('DELETE', '/nothing/'), '/nothing/');
    t.is(lookedFor('POST', '/foo/'), '/foo/');
    // The toggled path exists for POST only: still a 404, never a 405 nor a redirect.
    t.is(lookedFor('GET', '/foo/'), '/foo');
    t.is(lookedFor('GET', '/'), '/');
  });

  test(`${label}: a path of slashes only or with an encoded trailing slash is a 404, never a redirect, as Symfony's redirectable matchers`, (t) => {
    const router = create([route('home', '/'), route('boom', '/boom'), route('hello', '/hello/{name}')]);
    // rtrim('//', '/') is '/': CompiledUrlMatcherTrait::match() and RedirectableUrlMatcher::match() try no toggle.
    t.is(notFound(t, router, 'GET', '//'), '//');
    t.is(notFound(t, router, 'HEAD', '///'), '///');
    t.is(notFound(t, router, 'GET', '/boom%2F'), '/boom%2F/');
    t.is(notFound(t, router, 'GET', '/hello/ada%2f'), '/hello/ada%2f/');
    // A slash sent as a slash is still toggled and redirected.
    t.deepEqual(matchOf(router, 'GET', '/boom/').params, { path: '/boom', permanent: 'true' });
    t.deepEqual(matchOf(router, 'GET', '/hello/ada/').params, { path: '/hello/ada', permanent: 'true' });
  });

  test(`${label}: GET and HEAD of a path matching with its trailing slash toggled redirect permanently`, (t) => {
    const router = create([route('foo', '/foo'), route('bar', '/bar/', { methods: ['GET'] }), route('item', '/items/{id}')]);
    t.deepEqual(matchOf(router, 'GET', '/foo/'), { matched: true, name: 'foo', params: { path: '/foo', permanent: 'true' }, controller: redirectController });
    t.deepEqual(matchOf(router, 'HEAD', '/bar'), { matched: true, name: 'bar', params: { path: '/bar/', permanent: 'true' }, controller: redirectController });
    t.deepEqual(matchOf(router, 'GET', '/items/a%20b/').params, { path: '/items/a%20b', permanent: 'true' });
    t.is(matchOf(router, 'GET', '/foo').name, 'foo');
    // The route accepts every method, but only GET and HEAD are redirected.
    t.is(notFound(t, router, 'POST', '/foo/'), '/foo/');
  });

  test(`${label}: invalid routes are refused when the router is built`, (t) => {
    const invalid = (routes: RouteDefinition[]): LoupeError | undefined => t.throws(() => create(routes), { instanceOf: LoupeError, code: 'LOUPE_ERR_ROUTING_INVALID_ROUTE' });
    t.regex(invalid([route('r', '/a/{id}', { requirements: { slug: '.+' } })])?.message ?? '', /"slug"/);
    t.regex(invalid([route('r', '/a/{id}/{id}')])?.message ?? '', /more than once/);
    t.regex(invalid([route('r', '/a'), route('r', '/b')])?.message ?? '', /used twice/);
    invalid([route('r', '/a/{id}', { requirements: { id: '(' } })]);
    invalid([route('r', '/a/{id}', { requirements: { id: '^$' } })]);
    invalid([route('r', '/a/{id')]);
    invalid([route('r', '/a/{1d}')]);
    invalid([route('r', 'a')]);
  });

  test(`${label}: generate builds paths, leaving out an optional tail equal to its defaults`, (t) => {
    const router = create([
      route('home', '/'),
      route('hello', '/hello/{name}'),
      route('blog', '/blog/{page}', { defaults: { page: '1' }, requirements: { page: '\\d+' } }),
      route('list', '/{page}', { defaults: { page: 'index' } }),
    ]);
    t.is(router.generate('home'), '/');
    t.is(router.generate('hello', { name: 'world' }), '/hello/world');
    t.is(router.generate('blog'), '/blog');
    t.is(router.generate('blog', { page: '1' }), '/blog');
    t.is(router.generate('blog', { page: '3' }), '/blog/3');
    t.is(router.generate('list'), '/');
    t.is(router.generate('hello', { name: 'x', q: 'a b', page: '2' }), '/hello/x?q=a%20b&page=2');
  });

  test(`${label}: generate encodes values so that matching gives them back`, (t) => {
    const router = create([route('hello', '/hello/{name}', { requirements: { name: '.+' } })]);
    for (const name of ['Jürgen', 'a b', '100%', 'a/b', 'x?y#z', '..']) {
      const path = router.generate('hello', { name });
      t.deepEqual(matchOf(router, 'GET', path).params, { name }, path);
    }
    t.is(router.generate('hello', { name: 'a b/c@d' }), '/hello/a%20b/c@d');
    t.is(router.generate('hello', { name: '..' }), '/hello/%2E%2E');
  });

  test(`${label}: generate refuses unknown routes, missing and invalid parameters`, (t) => {
    const router = create([route('post', '/post/{id}/{slug}', { requirements: { id: '\\d+' } })]);
    const failure = { instanceOf: LoupeError, code: 'LOUPE_ERR_ROUTING_INVALID_ROUTE' } as const;
    t.is(t.throws(() => router.generate('nope'), failure)?.message, 'Unable to generate a URL for the named route "nope" as such route does not exist.');
    t.is(t.throws(() => router.generate('post'), failure)?.message, 'Some mandatory parameters are missing ("id", "slug") to generate a URL for route "post".');
    t.is(
      t.throws(() => router.generate('post', { id: 'x', slug: 's' }), failure)?.message,
      'Parameter "id" for route "post" must match "\\d+" ("x" given) to generate a corresponding URL.',
    );
  });

  test(`${label}: generateUrl is absolute on the context's host, with the context's locale`, (t) => {
    const router = create([route('hello', '/{_locale}/hello/{name}'), route('home', '/')]);
    const context = (scheme: 'http' | 'https', port: number): RequestContext => ({ scheme, host: 'example.com', port, locale: 'fr' });
    t.is(router.generateUrl('hello', { name: 'x' }, context('http', 8000)), 'http://example.com:8000/fr/hello/x');
    t.is(router.generateUrl('hello', { name: 'x', _locale: 'de' }, context('http', 80)), 'http://example.com/de/hello/x');
    t.is(router.generateUrl('home', {}, context('https', 443)), 'https://example.com/');
    t.is(router.generateUrl('home', {}, context('https', 80)), 'https://example.com:80/');
  });

  test(`${label}: placeholders named like Object.prototype members are plain placeholders`, (t) => {
    const router = create([route('proto', '/p/{toString}/{constructor}')]);
    t.deepEqual(matchOf(router, 'GET', '/p/a/b').params, { toString: 'a', constructor: 'b' });
    notFound(t, router, 'GET', '/p/a');
  });

  test(`${label}: trace explains each route in order, in Symfony's words, up to the one match() answers`, (t) => {
    const router = create([
      route('page', '/page/{n}', { methods: ['GET'], requirements: { n: '\\d+' } }),
      route('form', '/form', { methods: ['POST'] }),
      route('dir', '/dir/', { methods: ['GET'] }),
      route('pair', '/{a}/{b}'),
    ]);
    const outcomes = (method: string, path: string): string[] => router.trace(method, path).routes.map((entry) => `${entry.name} ${entry.level} ${entry.log}`);
    t.deepEqual(outcomes('GET', '/page/abc'), ['page 1 Requirement for "n" does not match (\\d+)', 'form 0 Path "/form" does not match', 'dir 0 Path "/dir/" does not match', 'pair 2 Route matches!']);
    t.is(matchOf(router, 'GET', '/page/abc').name, 'pair');
    t.deepEqual(outcomes('GET', '/form'), [
      'page 0 Path "/page/{n}" does not match',
      'form 1 Method "GET" does not match any of the required methods (POST)',
      'dir 0 Path "/dir/" does not match',
      'pair 0 Path "/{a}/{b}" does not match',
    ]);
    t.is(outcomes('PUT', '/dir')[2], 'dir 1 Trailing slash does not match: a PUT request is not redirected to "/dir/"');
    t.deepEqual(router.trace('GET', '/dir').routes.at(-1), { name: 'dir', path: '/dir/', level: 2, log: 'Route matches!' });
    t.deepEqual(router.trace('GET', '/x', 2), { routes: router.trace('GET', '/x').routes.slice(0, 2), omitted: 2 });
    t.like(router.describe('page'), { name: 'page', path: '/page/{n}', methods: ['GET'], requirements: { n: '\\d+' } });
    t.is(router.describe('nope'), undefined);
  });
}

/** What a router under the answer contract is known to answer, for any router (a table of routes or not). */
export interface AnsweringRouter {
  readonly router: Router;
  /** A GET request it answers: its path and the name of the route answering it. */
  readonly answered: { readonly path: string; readonly name: string };
  /** A path it answers for other methods only, and a method it does not answer there (a 405). */
  readonly otherMethods: { readonly path: string; readonly method: string };
  /** A path it answers for no method (a 404). */
  readonly unknown: string;
}

/**
 * The contract of Router.match that any router keeps, Loupe's or an application's: it answers
 * a match or a miss, never throws for a request it does not route, and, when it implements
 * TraceableRouter, its trace agrees with its answer.
 */
export function routerAnswerContract(label: string, create: () => AnsweringRouter): void {
  test(`${label}: a request it routes is answered as a match, with the route's name, its parameters and a controller`, (t) => {
    const { router, answered } = create();
    const answer = router.match('GET', answered.path);
    t.true(answer.matched);
    if (!answer.matched) return;
    t.is(answer.name, answered.name);
    t.is(typeof answer.params, 'object');
    t.true(Object.values(answer.params).every((value) => typeof value === 'string'));
    t.is(typeof answer.controller.handle, 'function');
    t.is(typeof answer.controller.name, 'string');
  });

  test(`${label}: a path it knows for other methods only is answered as a miss listing them, upper-cased and once each`, (t) => {
    const { router, otherMethods } = create();
    // A throw fails the test: a miss is an answer.
    const answer = router.match(otherMethods.method, otherMethods.path);
    t.like(answer, { matched: false });
    const allowed = answer.matched ? [] : answer.allowedMethods;
    t.true(allowed.length > 0, 'a 405 names the methods to use');
    t.deepEqual([...allowed], [...new Set(allowed.map((method) => method.toUpperCase()))]);
    t.false(allowed.includes(otherMethods.method.toUpperCase()));
  });

  test(`${label}: a path it does not know is answered as a miss with no allowed method, whatever the method`, (t) => {
    const { router, unknown } = create();
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
      const answer = router.match(method, unknown);
      t.deepEqual(answer.matched ? answer.name : answer.allowedMethods, [], `${method} ${unknown}`);
    }
  });

  test(`${label}: describe knows the route it answers and no other name; generate refuses an unknown route`, (t) => {
    const { router, answered } = create();
    t.is(router.describe(answered.name)?.name, answered.name);
    t.is(router.describe('no such route'), undefined);
    t.throws(() => router.generate('no such route'), { instanceOf: LoupeError, code: 'LOUPE_ERR_ROUTING_INVALID_ROUTE' });
  });

  test(`${label}: a traceable router's trace ends at the route that answers, and lists none that matches for a miss; any other is named as untraced`, (t) => {
    const { router, answered, unknown } = create();
    const answeredTrace = traceOf(router, 'GET', answered.path, Number.POSITIVE_INFINITY);
    const missTrace = traceOf(router, 'GET', unknown, Number.POSITIVE_INFINITY);
    t.false(missTrace.routes.some((entry) => entry.level === RouteTraceLevel.MATCHES));
    if (isTraceable(router)) {
      t.like(answeredTrace.routes.at(-1), { name: answered.name, level: RouteTraceLevel.MATCHES });
    } else {
      t.deepEqual(answeredTrace, { routes: [], omitted: 0, untraced: [router.constructor.name] });
    }
  });
}
