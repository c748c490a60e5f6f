import { type IncomingMessage, type ServerResponse } from 'node:http';
import { createIpRangeMatcher } from '../../../http/ip-range-matcher';
import { type ProfiledRequest } from '../../core/profiled-request';
import { startProfiler, type StartedProfiler } from '../../core/start-profiler';
import { endOnClose, instrumentResponse } from '../node-response';
import { writePage } from '../write-page';
import { requestStartOf } from '../request-start-of';
import { isRouteHandler, listenToRouter, type LayerCall, type LayerListener } from './router-tracing';
import { type ExpressNext, type LoupeMiddleware, type LoupeOptions } from './loupe-middleware';

/** What the adapter keeps of one request while Express handles it. */
interface Handled {
  readonly handle: ProfiledRequest;
  readonly res: ServerResponse;
  /** The errors recorded, so that one seen by both the router's channel and the error middleware counts once. */
  readonly errors: Set<unknown>;
  /** The state entered last by the adapter: a state is entered only when it changes. */
  state: string;
  routed: boolean;
  /** The spans of the layers being called, closed as each call settles. */
  readonly spans: WeakMap<LayerCall, () => void>;
}

/** The started profiler of a middleware, and what it listens to. */
interface Running {
  readonly profiler: StartedProfiler;
  readonly isAllowedClient: (address: string) => boolean;
  readonly serverTiming: boolean;
  readonly stopListening: () => void;
}

/** Express's own fields of a request, where they are set. */
interface ExpressRequest extends IncomingMessage {
  readonly baseUrl?: string;
  readonly originalUrl?: string;
  readonly route?: { readonly path?: unknown };
}

/** The route that serves `req` as its method and pattern, the mount path of its router included (`GET /api/users/:id`). */
function routeOf(req: ExpressRequest): string | null {
  if (req.route === undefined) return null;
  return `${req.method ?? 'GET'} ${req.baseUrl ?? ''}${String(req.route.path)}`;
}

/** Records `error` once. */
function recordError(handled: Handled, error: unknown): void {
  if (handled.errors.has(error)) return;
  handled.errors.add(error);
  handled.handle.fail(error);
}

/** Enters `state` unless it is the current one, or the response has gone. */
function enter(handled: Handled, state: string): void {
  if (handled.state === state || handled.res.headersSent) return;
  handled.state = state;
  handled.handle.enter(state);
}

/** What the router's channel tells of a profiled request: its states, route and handler, layer spans and errors. */
function followLayers(requests: WeakMap<IncomingMessage, Handled>): LayerListener {
  return {
    started: (call) => {
      const handled = requests.get(call.req);
      if (handled === undefined) return;
      const isHandler = isRouteHandler(call) && call.errorHandler !== true;
      enter(handled, call.errorHandler === true ? 'error handler' : isHandler ? 'handler' : 'middleware');
      const name = call.handler.name;
      if (isHandler) {
        const route = routeOf(call.req as ExpressRequest);
        if (route !== null) handled.handle.setRoute(route, name === '' ? undefined : name);
        handled.routed = route !== null;
      }
      handled.spans.set(call, handled.handle.beginSpan(name === '' ? '<anonymous>' : name, isHandler ? 'controller' : 'listener'));
    },
    settled: (call) => requests.get(call.req)?.spans.get(call)?.(),
    failed: (call) => {
      const handled = requests.get(call.req);
      if (handled !== undefined) recordError(handled, call.error);
    },
  };
}

/**
 * The Express middleware that profiles the requests after it (see `loupe`): starts the profiler
 * on the first request (or on `start()`), then per request makes its handle, instruments the
 * response and runs the rest of the chain inside the handle. Route, states, layer spans and
 * errors come from the router's tracing channel, which hands each request back by `req`.
 */
export function createLoupeMiddleware(options: LoupeOptions): LoupeMiddleware {
  const requests = new WeakMap<IncomingMessage, Handled>();
  let started: Promise<Running> | null = null;

  const start = (): Promise<Running> => {
    started ??= startProfiler(options).then((profiler) => ({
      profiler,
      isAllowedClient: createIpRangeMatcher(profiler.config.profiler.allowedIps),
      serverTiming: options.serverTiming !== false,
      stopListening: listenToRouter(followLayers(requests)),
    }));
    // A profiler that failed to start (an invalid setting; a Redis away does not fail it) is tried again on the next request.
    started.catch(() => (started = null));
    return started;
  };

  const profile = ({ profiler, isAllowedClient, serverTiming }: Running, req: ExpressRequest, res: ServerResponse, next: ExpressNext): void => {
    const start = requestStartOf(req);
    const pages = options.pages === false ? null : profiler.pages();
    if (pages?.owns(start.url.split('?')[0] ?? '') === true) {
      void pages.serve(start).then((page) => writePage(res, page));
      return;
    }
    const handle = profiler.startRequest(start);
    const handled: Handled = { handle, res, errors: new Set(), state: '', routed: false, spans: new WeakMap() };
    requests.set(req, handled);
    instrumentResponse(res, handle, { isAllowedClient, serverTiming });
    enter(handled, 'middleware');
    endOnClose(res, handle, () => {
      // Without the router's channel (Express 4), the route is read once the response is sent.
      const route = handled.routed ? null : routeOf(req);
      if (route !== null) handle.setRoute(route);
    });
    handle.run(() => next());
  };

  const middleware = (req: IncomingMessage, res: ServerResponse, next: ExpressNext): void => {
    // Once only, should the middleware be mounted twice (an app and its sub-app).
    if (requests.has(req)) return next();
    start().then(
      (running) => profile(running, req, res, next),
      (error: unknown) => next(error),
    );
  };
  return Object.assign(middleware, {
    start: async () => (await start()).profiler,
    errors: () => (error: unknown, req: IncomingMessage, _res: ServerResponse, next: ExpressNext) => {
      const handled = requests.get(req);
      if (handled !== undefined) recordError(handled, error);
      next(error);
    },
    close: async () => {
      const running = started;
      started = null;
      if (running === null) return;
      const { profiler, stopListening } = await running;
      stopListening();
      await profiler.close();
    },
  });
}
