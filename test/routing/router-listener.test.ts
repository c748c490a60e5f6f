import test from 'ava';
import { BadRequestHttpError, MethodNotAllowedHttpError, NotFoundHttpError, PayloadTooLargeHttpError } from '../../src/errors/http-error';
import { LoupeResponse } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { Exchange } from '../../src/kernel/exchange';
import { LoupeRequest } from '../../src/http/request';
import { Kernel } from '../../src/kernel/kernel';
import { type KernelPhase } from '../../src/kernel/kernel-events';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createRouterListener } from '../../src/routing/router-listener';
import { MethodNotAllowedError } from '../../src/routing/method-not-allowed-error';
import { redirectController } from '../../src/routing/redirect-controller';
import { requestContextOf, setRequestContext } from '../../src/routing/request-context';
import { ResourceNotFoundError } from '../../src/routing/resource-not-found-error';
import { routeMiss } from '../../src/routing/route-miss';
import { type RouteMatch, type RouteMiss, type Router } from '../../src/routing/router';
import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { exchangeFor, requestData } from '../helpers/request-data';
import { runPhaseSync } from '../helpers/run-phase';

const helloController: Controller = { name: 'hello.hello', handle: () => new LoupeResponse('hello') };
const errorController: Controller = { name: 'error_controller', handle: () => new LoupeResponse('error page') };

const router = new UrlMatcherRouter([
  { name: 'hello', path: '/hello/{name}', methods: ['GET'], controller: helloController },
  { name: 'only_get', path: '/only-get', methods: ['GET', 'PUT'], controller: helloController },
  { name: 'foo', path: '/foo', methods: ['GET'], controller: helloController },
]);

function runRouter(phase: KernelPhase, exchange: Exchange, on: Router = router): void {
  runPhaseSync(createRouterListener(on), phase, exchange);
}

function route(exchange: Exchange, on: Router = router): Exchange {
  runRouter('kernel.request', exchange, on);
  return exchange;
}

/** A router that fails the test when asked anything. */
const untouchable: Router = {
  match: () => {
    throw new Error('the router must not be consulted');
  },
  generate: () => '',
  generateUrl: () => '',
  describe: () => undefined,
};

/** A router of an application's own that answers `answer` to every request. */
const answering = (answer: RouteMatch | RouteMiss): Router => ({ match: () => answer, generate: () => '', generateUrl: () => '', describe: () => undefined });

/** A router written before misses were answered: it throws them. */
const throwing = (error: Error): Router => ({
  match: () => {
    throw error;
  },
  generate: () => '',
  generateUrl: () => '',
  describe: () => undefined,
});

test('it is the RouterListener on kernel.request (32) and kernel.finish_request (0)', (t) => {
  const listener = createRouterListener(router);
  t.is(listener.name, 'RouterListener');
  t.deepEqual(Object.keys(listener.subscriptions).sort(), ['kernel.finish_request', 'kernel.request']);
  const registry = new ListenerRegistry([listener]);
  t.deepEqual(registry.for('kernel.request').map(({ priority }) => priority), [32]);
  t.deepEqual(registry.for('kernel.finish_request').map(({ priority }) => priority), [0]);
});

test('a matched route sets the attributes, the controller and logs the match', (t) => {
  const exchange = route(exchangeFor({ path: '/hello/J%C3%BCrgen', query: 'x=1' }));
  const { attributes } = exchange.request;
  t.is(attributes.get('_route'), 'hello');
  t.is(attributes.get('_controller'), 'hello.hello');
  t.is(attributes.get('name'), 'Jürgen');
  t.deepEqual(attributes.get('_route_params'), { name: 'Jürgen' });
  t.is(exchange.controller, helloController);
  t.deepEqual(exchange.trace.logs, [
    {
      level: 'info',
      message: 'Matched route "hello".',
      context: {
        route: 'hello',
        route_parameters: { _route: 'hello', _controller: 'hello.hello', name: 'Jürgen' },
        request_uri: 'http://127.0.0.1:8000/hello/J%C3%BCrgen?x=1',
        method: 'GET',
      },
      at: exchange.trace.logs[0]?.at ?? -1,
    },
  ]);
});

test('an unrouted request is a 404 naming the absolute URI, with the inner error as cause', (t) => {
  const exchange = exchangeFor({ path: '/config.yaml', query: 'a=b' });
  const error = t.throws(() => route(exchange), { instanceOf: NotFoundHttpError, message: 'No route found for "GET http://127.0.0.1:8000/config.yaml"' });
  t.is(error?.statusCode, 404);
  t.true(error?.cause instanceof ResourceNotFoundError);
  t.is((error?.cause as Error).message, 'No routes found for "/config.yaml/".');
  t.is(exchange.controller, null);
  t.is(exchange.request.attributes.size, 0);
  t.deepEqual(
    exchange.trace.logs.map(({ level, message, context }) => ({ level, message, context })),
    [{ level: 'info', message: 'No route matched.', context: { path: '/config.yaml', method: 'GET', reason: 'No routes found for "/config.yaml/".' } }],
  );
});

test('the 404 URI keeps the raw path, lower-cases the host and leaves out a default port', (t) => {
  const exchange = exchangeFor({ method: 'POST', path: '/caf%C3%A9/', headers: { host: 'Example.COM:80' } });
  const error = t.throws(() => route(exchange), { instanceOf: NotFoundHttpError });
  t.is(error?.message, 'No route found for "POST http://example.com/caf%C3%A9/"');
  t.is((error?.cause as Error).message, 'No routes found for "/caf%C3%A9/".');
});

test('the 404 names the referer when one is sent, and only a non-empty one', (t) => {
  const withReferer = exchangeFor({ path: '/missing', headers: { referer: 'http://127.0.0.1:8000/hello/x' } });
  t.throws(() => route(withReferer), { message: 'No route found for "GET http://127.0.0.1:8000/missing" (from "http://127.0.0.1:8000/hello/x")' });
  t.throws(() => route(exchangeFor({ path: '/missing', headers: { referer: '' } })), { message: 'No route found for "GET http://127.0.0.1:8000/missing"' });
});

test('a wrong method is a 405 with Allow, never naming the referer', (t) => {
  const exchange = exchangeFor({ method: 'POST', path: '/only-get', headers: { referer: 'http://elsewhere/' } });
  const error = t.throws(() => route(exchange), {
    instanceOf: MethodNotAllowedHttpError,
    message: 'No route found for "POST http://127.0.0.1:8000/only-get": Method Not Allowed (Allow: GET, PUT)',
  });
  t.is(error?.statusCode, 405);
  t.deepEqual(error?.headers, { Allow: 'GET, PUT' });
  t.deepEqual(error?.allowedMethods, ['GET', 'PUT']);
  t.true(error?.cause instanceof MethodNotAllowedError);
  t.is(exchange.trace.logs[0]?.message, 'No route matched.');
  t.is(exchange.trace.logs[0]?.context['reason'], 'Method Not Allowed (Allow: GET, PUT)');
});

test("an application's router answering a miss gets the 404, and the 405 with Allow, of Loupe's router, with the same messages", (t) => {
  const notFound = t.throws(() => route(exchangeFor({ path: '/config.yaml', query: 'a=b' }), answering(routeMiss())), { instanceOf: NotFoundHttpError });
  t.is(notFound?.message, 'No route found for "GET http://127.0.0.1:8000/config.yaml"');
  t.is((notFound?.cause as Error).message, 'No routes found for "/config.yaml".', 'the cause names the request\'s path when the miss names none');
  const exchange = exchangeFor({ method: 'POST', path: '/only-get' });
  const notAllowed = t.throws(() => route(exchange, answering(routeMiss(['get', 'put', 'GET']))), { instanceOf: MethodNotAllowedHttpError });
  t.is(notAllowed?.message, 'No route found for "POST http://127.0.0.1:8000/only-get": Method Not Allowed (Allow: GET, PUT)');
  t.deepEqual(notAllowed?.headers, { Allow: 'GET, PUT' });
  t.true(notAllowed?.cause instanceof MethodNotAllowedError);
  t.is(exchange.trace.logs[0]?.context['reason'], 'Method Not Allowed (Allow: GET, PUT)');
  const matched = route(exchangeFor({ path: '/anything' }), answering({ matched: true, name: 'any', params: { id: '7' }, controller: helloController }));
  t.is(matched.controller, helloController);
  t.is(matched.request.attributes.get('id'), '7');
});

test('deprecated: a router that still throws ResourceNotFoundError or MethodNotAllowedError gets the same 404 and 405; any other error goes through', (t) => {
  const notFound = t.throws(() => route(exchangeFor({ path: '/missing' }), throwing(new ResourceNotFoundError('/missing'))), { instanceOf: NotFoundHttpError });
  t.is(notFound?.message, 'No route found for "GET http://127.0.0.1:8000/missing"');
  const notAllowed = t.throws(() => route(exchangeFor({ method: 'DELETE', path: '/x' }), throwing(new MethodNotAllowedError(['GET']))), { instanceOf: MethodNotAllowedHttpError });
  t.deepEqual(notAllowed?.headers, { Allow: 'GET' });
  const boom = new Error('the database is down');
  t.is(t.throws(() => route(exchangeFor({ path: '/x' }), throwing(boom))), boom);
});

test('without a detailed trace (prod) a match and a 404 are the same, and the request keeps no log entry', (t) => {
  const prod = (path: string): Exchange => new Exchange(new LoupeRequest(requestData({ path }), 'en'), null, null, { detailedTrace: false });
  const matched = route(prod('/hello/anna'));
  t.is(matched.controller, helloController);
  t.is(matched.request.attributes.get('name'), 'anna');
  const missing = prod('/missing');
  const error = t.throws(() => route(missing), { instanceOf: NotFoundHttpError, message: 'No route found for "GET http://127.0.0.1:8000/missing"' });
  t.true(error?.cause instanceof ResourceNotFoundError);
  t.deepEqual(matched.trace.logs, []);
  t.deepEqual(missing.trace.logs, []);
});

test('an invalid Host header is a 400 before the router is consulted', (t) => {
  const exchange = exchangeFor({ path: '/hello/x', headers: { host: 'bad host' } });
  const error = t.throws(() => route(exchange, untouchable), { instanceOf: BadRequestHttpError, message: 'Invalid Host "bad host".' });
  t.is(error?.statusCode, 400);
  t.is(error?.code, 'LOUPE_ERR_HTTP_INVALID_HOST');
  t.is(exchange.controller, null);
});

test('a request whose controller is set (the error sub-request) is not routed', (t) => {
  const main = exchangeFor({ path: '/hello/x', headers: { host: 'bad host' } });
  const sub = main.createErrorSubRequest(new Error('boom'), errorController);
  t.notThrows(() => route(sub, untouchable));
  t.is(sub.controller, errorController);
  t.deepEqual([...sub.request.attributes.keys()].sort(), ['_controller', 'exception']);
  t.deepEqual(sub.trace.logs, []);
});

test('a main request whose controller a listener chose is not matched, but gets its context and its body limit', (t) => {
  const chosen = exchangeFor({ method: 'POST', path: '/anywhere', headers: { host: 'example.com' }, body: Buffer.from('12345') });
  chosen.controller = helloController;
  t.notThrows(() => route(chosen, untouchable));
  t.is(chosen.controller, helloController);
  t.is(chosen.request.attributes.get('_route'), undefined);
  t.is(requestContextOf(chosen).host, 'example.com');
  const limited = exchangeFor({ method: 'POST', path: '/anywhere', body: Buffer.from('12345') });
  limited.controller = { ...helloController, maxBodySize: 4 };
  t.throws(() => route(limited, untouchable), { instanceOf: PayloadTooLargeHttpError });
});

test('a path matching with its slash toggled is answered by the redirect controller', (t) => {
  const exchange = route(exchangeFor({ path: '/foo/', query: 'q=1' }));
  t.is(exchange.controller, redirectController);
  t.is(exchange.request.attributes.get('_route'), 'foo');
  t.is(exchange.request.attributes.get('_controller'), redirectController.name);
  t.is(exchange.request.attributes.get('path'), '/foo');
  t.is(exchange.request.attributes.get('permanent'), 'true');
});

test('routing records the request context; a finished sub-request gives its parent back', (t) => {
  const main = route(exchangeFor({ path: '/hello/x', headers: { host: 'Example.com:8443' } }));
  main.request.locale = 'fr';
  t.deepEqual({ ...requestContextOf(main) }, { scheme: 'http', host: 'example.com', port: 8443, locale: 'fr' });
  t.is(router.generateUrl('hello', { name: 'y' }, requestContextOf(main)), 'http://example.com:8443/hello/y');

  const sub = main.createErrorSubRequest(new Error('boom'), errorController);
  t.is(requestContextOf(sub).host, 'example.com');
  setRequestContext(sub, { scheme: 'https', host: 'sub.example', port: 443, locale: 'de' });
  t.is(requestContextOf(sub).host, 'sub.example');
  runRouter('kernel.finish_request', sub);
  t.is(requestContextOf(sub).host, 'example.com');
  // The main request has no parent to restore: its context stays for kernel.response and later.
  runRouter('kernel.finish_request', main);
  t.is(requestContextOf(main).host, 'example.com');
});

test('a body larger than the matched controller accepts is a 413 once the route matched', (t) => {
  const small: Controller = { name: 'upload.small', handle: () => new LoupeResponse('ok'), maxBodySize: 4 };
  const limited = new UrlMatcherRouter([
    { name: 'upload', path: '/upload', methods: ['POST'], controller: small },
    { name: 'open', path: '/open', methods: ['POST'], controller: helloController },
  ]);
  const tooLarge = exchangeFor({ method: 'POST', path: '/upload', body: Buffer.from('12345') });
  const error = t.throws(() => route(tooLarge, limited), { instanceOf: PayloadTooLargeHttpError, message: 'Request body exceeds the limit of 4 bytes.' });
  t.is(error?.statusCode, 413);
  t.is(error?.code, 'LOUPE_ERR_HTTP_PAYLOAD_TOO_LARGE');
  // Checked after matching: the route is known and logged, so the profile shows which limit applied.
  t.is(tooLarge.request.attributes.get('_route'), 'upload');
  t.is(tooLarge.trace.logs[0]?.message, 'Matched route "upload".');

  t.notThrows(() => route(exchangeFor({ method: 'POST', path: '/upload', body: Buffer.from('1234') }), limited));
  t.notThrows(() => route(exchangeFor({ method: 'POST', path: '/upload' }), limited));
  // A controller without a limit of its own leaves the server's limit alone.
  t.notThrows(() => route(exchangeFor({ method: 'POST', path: '/open', body: Buffer.alloc(64 * 1024) }), limited));
});

test('without routing the context is Symfony\'s default http://localhost', (t) => {
  t.deepEqual({ ...requestContextOf(exchangeFor()) }, { scheme: 'http', host: 'localhost', port: 80, locale: 'en' });
});

test('through the kernel, the 405 response carries Allow and the redirect is a 301 with the query kept', async (t) => {
  const written: LoupeResponse[] = [];
  const kernel = new Kernel({ defaultLocale: 'en', errorController, listeners: new ListenerRegistry([createRouterListener(router)]) });
  const connection = { write: (response: LoupeResponse) => written.push(response) > 0 };
  kernel.handle(requestData({ method: 'DELETE', path: '/only-get' }), connection);
  kernel.handle(requestData({ path: '/foo/', query: 'a=1&b=2' }), connection);
  await kernel.whenIdle();
  t.is(written[0]?.status, 405);
  t.is(written[0]?.headers.get('Allow'), 'GET, PUT');
  t.is(written[1]?.status, 301);
  t.is(written[1]?.headers.get('Location'), 'http://127.0.0.1:8000/foo?a=1&b=2');
});

/** The error the router listener raises for `data`, with or without stack traces. */
function raised(data: Parameters<typeof exchangeFor>[0], stackTraces: boolean): unknown {
  try {
    runPhaseSync(createRouterListener(router, { stackTraces }), 'kernel.request', exchangeFor(data));
  } catch (error) {
    return error;
  }
  return null;
}

const frameLines = (error: unknown): string[] => String((error as Error).stack).split('\n').filter((line) => /^\s+at /.test(line));

test('without stack traces (no debug) the 404 and 405 and their causes capture no frames, and Error.stackTraceLimit is left as it was', (t) => {
  const limit = Error.stackTraceLimit;
  const notFound = raised({ path: '/nowhere' }, false);
  t.true(notFound instanceof NotFoundHttpError);
  t.deepEqual(frameLines(notFound), []);
  t.deepEqual(frameLines((notFound as Error).cause), []);
  t.true(String((notFound as Error).stack).startsWith('NotFoundHttpError: No route found for "GET'));
  const notAllowed = raised({ method: 'POST', path: '/foo' }, false);
  t.true(notAllowed instanceof MethodNotAllowedHttpError);
  t.deepEqual(frameLines(notAllowed), []);
  t.is(Error.stackTraceLimit, limit);
  t.true(frameLines(new Error('here')).length > 0, 'errors created afterwards have their frames');
});

test('with stack traces (the default, debug) the 404 has its frames, from the router listener', (t) => {
  const notFound = raised({ path: '/nowhere' }, true);
  t.regex(frameLines(notFound)[0] ?? '', /at toHttpError .*router-listener/);
  t.regex(frameLines(notFound)[1] ?? '', /at matchRequest /, 'no wrapper adds frames of its own to the trace');
});
