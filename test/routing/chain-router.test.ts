import test from 'ava';
import { Response } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { ChainRouter } from '../../src/routing/chain-router';
import { MethodNotAllowedError } from '../../src/routing/method-not-allowed-error';
import { redirectController } from '../../src/routing/redirect-controller';
import { ResourceNotFoundError } from '../../src/routing/resource-not-found-error';
import { type Router } from '../../src/routing/router';
import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { routerContract } from './router-contract';

// Every route in the second router: the chain must then behave as that router alone.
routerContract('ChainRouter', (routes) => new ChainRouter([new UrlMatcherRouter([]), new UrlMatcherRouter(routes)]));

const controller = (name: string): Controller => ({ name, handle: () => new Response(name) });
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

test('the first router that matches answers; the next is asked only when it throws', (t) => {
  t.is(chain.match('GET', '/_profiler/abc123').name, '_profiler', 'the catch-all of the later router never sees it');
  t.is(chain.match('GET', '/form').name, 'form');
  t.is(chain.match('POST', '/form').name, 'form_post', 'a 405 of the first router lets the next one match');
  t.is(chain.match('GET', '/anything/else').name, 'catch_all');
});

test('a path known only for other methods is a 405 with the methods of every router', (t) => {
  const error = t.throws(() => chain.match('DELETE', '/form'), { instanceOf: MethodNotAllowedError });
  t.deepEqual(error?.allowedMethods, ['GET', 'POST']);
  t.deepEqual(t.throws(() => chain.match('PATCH', '/page/a'), { instanceOf: MethodNotAllowedError })?.allowedMethods, ['PUT', 'GET'], 'the page and the catch-all');
});

test('a path no router knows is the last router\'s 404', (t) => {
  const only = new ChainRouter([own]);
  t.throws(() => only.match('POST', '/nope'), { instanceOf: ResourceNotFoundError, message: 'No routes found for "/nope".' });
  t.throws(() => new ChainRouter([]).match('GET', '/'), { instanceOf: ResourceNotFoundError });
});

test('a router answers the toggled trailing slash of its own routes with the redirect', (t) => {
  const match = new ChainRouter([own, app]).match('GET', '/form/');
  t.is(match.controller, redirectController);
  t.is(match.params['path'], '/form');
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
  const names = (router: Router, method: string, path: string, limit?: number): string[] => router.trace(method, path, limit).routes.map((entry) => entry.name);
  t.deepEqual(names(chain, 'GET', '/_profiler/x'), ['_profiler']);
  t.deepEqual(names(chain, 'POST', '/form'), ['_profiler', 'form', 'form_post']);
  t.deepEqual(names(chain, 'DELETE', '/nope/x'), ['_profiler', 'form', 'form_post', 'page', 'catch_all']);
  t.deepEqual(chain.trace('DELETE', '/nope/x', 3), { routes: chain.trace('DELETE', '/nope/x').routes.slice(0, 3), omitted: 2 });
});
