import test from 'ava';
import { LoupeResponse } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { ChainRouter } from '../../src/routing/chain-router';
import { redirectController } from '../../src/routing/redirect-controller';
import { type RequestContext } from '../../src/routing/request-context';
import { routeMiss } from '../../src/routing/route-miss';
import { type RouteDescription, type RouteMatch, type RouteMiss, type Router } from '../../src/routing/router';
import { type RouteTrace } from '../../src/routing/route-trace';
import { type TraceableRouter } from '../../src/routing/traceable-router';
import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { PageRouter } from '../helpers/page-router';
import { routerAnswerContract, routerContract } from './router-contract';

// Every route in the second router: the chain must then behave as that router alone.
routerContract('ChainRouter', (routes) => new ChainRouter([new UrlMatcherRouter([]), new UrlMatcherRouter(routes)]));

const controller = (name: string): Controller => ({ name, handle: () => new LoupeResponse(name) });
const own = new UrlMatcherRouter([
  { name: '_profiler', path: '/_profiler/{token}', methods: ['GET'], controller: controller('profiler.panel') },
  { name: 'form', path: '/form', methods: ['GET'], controller: controller('form.show') },
]);
const app = new UrlMatcherRouter([
  { name: 'form_post', path: '/form', methods: ['POST'], controller: controller('form.submit') },
  { name: 'page', path: '/page/{slug}', methods: ['PUT'], controller: controller('page.save') },
  { name: 'catch_all', path: '/{path}', requirements: { path: '.+' }, methods: ['GET'], controller: controller('app.catchAll') },
]);
const chain = new ChainRouter([own, app]);

/** The route `router` answers, or an error that fails the test naming the miss. */
function matchOf(router: Router, method: string, path: string): RouteMatch {
  const answer = router.match(method, path);
  if (!answer.matched) throw new Error(`${method} ${path} is a miss, not a match`);
  return answer;
}

/** The miss `router` answers, or an error that fails the test naming the match. */
function missOf(router: Router, method: string, path: string): RouteMiss {
  const answer = router.match(method, path);
  if (answer.matched) throw new Error(`${method} ${path} matched route "${answer.name}", not a miss`);
  return answer;
}

/** A router that counts what it is asked, in front of another. */
class Counting implements TraceableRouter {
  readonly calls = { match: 0, trace: 0 };
  readonly #router: TraceableRouter;

  constructor(router: TraceableRouter) {
    this.#router = router;
  }

  match(method: string, path: string): RouteMatch | RouteMiss {
    this.calls.match++;
    return this.#router.match(method, path);
  }

  generate(name: string, params?: Readonly<Record<string, string>>): string {
    return this.#router.generate(name, params);
  }

  generateUrl(name: string, params: Readonly<Record<string, string>>, context: RequestContext): string {
    return this.#router.generateUrl(name, params, context);
  }

  describe(name: string): RouteDescription | undefined {
    return this.#router.describe(name);
  }

  trace(method: string, path: string, limit?: number): RouteTrace {
    this.calls.trace++;
    return this.#router.trace(method, path, limit);
  }
}

test('the first router that matches answers; the next is asked only when it misses', (t) => {
  t.is(matchOf(chain, 'GET', '/_profiler/abc123').name, '_profiler', 'the catch-all of the later router never sees it');
  t.is(matchOf(chain, 'GET', '/form').name, 'form');
  t.is(matchOf(chain, 'POST', '/form').name, 'form_post', 'a 405 of the first router lets the next one match');
  t.is(matchOf(chain, 'GET', '/anything/else').name, 'catch_all');
});

test('a path known only for other methods is a 405 with the methods of every router', (t) => {
  t.deepEqual(missOf(chain, 'DELETE', '/form').allowedMethods, ['GET', 'POST']);
  t.deepEqual(missOf(chain, 'PATCH', '/page/a').allowedMethods, ['PUT', 'GET'], 'the page and the catch-all');
});

test("a path no router knows is the last router's 404, naming the path it looked for last", (t) => {
  t.deepEqual(missOf(new ChainRouter([own]), 'POST', '/nope'), { matched: false, allowedMethods: [] });
  t.deepEqual(missOf(new ChainRouter([own, own]), 'GET', '/nope'), { matched: false, allowedMethods: [], path: '/nope/' });
  t.deepEqual(missOf(new ChainRouter([]), 'GET', '/'), { matched: false, allowedMethods: [] });
});

test('a router answers the toggled trailing slash of its own routes with the redirect', (t) => {
  const match = matchOf(new ChainRouter([own, app]), 'GET', '/form/');
  t.is(match.controller, redirectController);
  t.is(match.params['path'], '/form');
});

test('each router is asked once per request, and tracing asks none of them to match', (t) => {
  const first = new Counting(own);
  const second = new Counting(app);
  const counted = new ChainRouter([first, second]);
  counted.match('DELETE', '/nope/x');
  t.deepEqual([first.calls, second.calls], [{ match: 1, trace: 0 }, { match: 1, trace: 0 }]);
  counted.match('GET', '/form');
  t.deepEqual([first.calls.match, second.calls.match], [2, 1], 'the second is not asked when the first answers');
  t.deepEqual(counted.trace('GET', '/form').routes.map((entry) => entry.name), ['_profiler', 'form']);
  t.deepEqual(counted.trace('DELETE', '/nope/x').routes.length, 5);
  t.deepEqual([first.calls, second.calls], [{ match: 2, trace: 2 }, { match: 1, trace: 1 }], 'the trace stops at the router whose trace matches');
});

test('generate and describe ask the router that has the route', (t) => {
  t.is(chain.generate('_profiler', { token: 'abc' }), '/_profiler/abc');
  t.is(chain.generate('page', { slug: 'x' }), '/page/x');
  t.is(chain.generateUrl('page', { slug: 'x' }, { scheme: 'https', host: 'example.com', port: 443, locale: 'en' }), 'https://example.com/page/x');
  t.is(chain.describe('form_post')?.path, '/form');
  t.is(chain.describe('nope'), undefined);
  t.throws(() => chain.generate('nope'), { message: 'Unable to generate a URL for the named route "nope" as such route does not exist.' });
});

test('trace lists each router\'s routes up to the router that answers, the limit counting over all', (t) => {
  const names = (router: TraceableRouter, method: string, path: string, limit?: number): string[] => router.trace(method, path, limit).routes.map((entry) => entry.name);
  t.deepEqual(names(chain, 'GET', '/_profiler/x'), ['_profiler']);
  t.deepEqual(names(chain, 'POST', '/form'), ['_profiler', 'form', 'form_post']);
  t.deepEqual(names(chain, 'DELETE', '/nope/x'), ['_profiler', 'form', 'form_post', 'page', 'catch_all']);
  t.deepEqual(chain.trace('DELETE', '/nope/x', 3), { routes: chain.trace('DELETE', '/nope/x').routes.slice(0, 3), omitted: 2 });
});

test('a router without trace is named as untraced, and the routers after it are still traced', (t) => {
  const pages = new PageRouter(new Map([['welcome', 'hello']]));
  t.deepEqual(new ChainRouter([own, pages, app]).trace('DELETE', '/nope/x'), { routes: chain.trace('DELETE', '/nope/x').routes, omitted: 0, untraced: ['PageRouter'] });
  const plain: Router = { match: () => routeMiss(), generate: () => '', generateUrl: () => '', describe: () => undefined };
  t.deepEqual(new ChainRouter([plain]).trace('GET', '/'), { routes: [], omitted: 0, untraced: ['Router'] }, 'a router that is a plain object is named Router');
});

test('a match without `matched`, from a router written before misses were answered, is still a match', (t) => {
  const legacy = { name: 'legacy', params: {}, controller: controller('legacy.show') };
  const old: Router = { match: () => legacy as unknown as RouteMatch, generate: () => '', generateUrl: () => '', describe: () => undefined };
  t.is(new ChainRouter([own, old]).match('GET', '/anything'), legacy as unknown as RouteMatch);
});

routerAnswerContract('ChainRouter', () => ({ router: chain, answered: { path: '/page/x/', name: 'catch_all' }, otherMethods: { path: '/form', method: 'DELETE' }, unknown: '/' }));
