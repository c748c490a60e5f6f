import { type Context } from 'hono';
import { NotFoundHttpError } from '../../../errors/http-error';
import { type ProfiledRequest } from '../../core/profiled-request';
import { followChain } from './follow-chain';

/** Where Hono keeps the application's handler it wrapped, to run a sub-application's own onError around it (`app.route()`). */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER';

/** What is read of a layer's function: its name, and whether it declares `next`. */
interface LayerFunction {
  readonly name: string;
  readonly length: number;
}

/** The application's own function behind a matched route, not Hono's wrapper around it. */
function ownFunction(handler: LayerFunction): LayerFunction {
  const composed: unknown = Reflect.get(handler, COMPOSED_HANDLER);
  return typeof composed === 'function' ? composed : handler;
}

/** What the profile is told once the chain is over. */
export interface ChainRecord {
  /** Records an error Hono did not catch (a value thrown that is no Error); once, as those Hono caught. */
  fail(error: unknown): void;
  /** The chain is over and its response, of `status`, is about to be marked: stops following, enters `response`. */
  finish(status: number): void;
}

/**
 * Records what Hono runs of `c`'s chain after the calling middleware into `request`: the states
 * `middleware` → `handler` → `middleware` (their parts after `await next()`) → `response`, and
 * `onError` while the application's error handler runs; a span per layer, named after its
 * function, from its call until the next layer is called or a response is set (a middleware's
 * part before `await next()`, a handler's whole run); the route of the handler that ran (`GET
 * /users/:id`, the handler's name, its parameters); each error Hono caught, once. A layer is a
 * handler when its function declares no `next` parameter, as Hono's own logger example tells
 * them apart. A 404 that no handler answered is Hono's notFound: a 404 of no route, as Loupe's router records one.
 */
export function recordChain(c: Context, request: ProfiledRequest): ChainRecord {
  // The deprecated field rather than `hono/route`'s helper: the adapter loads nothing of Hono's itself.
  const routes = c.req.matchedRoutes;
  const errors = new Set<unknown>();
  let state = '';
  let span: (() => void) | null = null;
  let handlerRan = false;
  let middlewareRan = false;

  const enter = (next: string): void => {
    if (state === next) return;
    state = next;
    request.enter(next);
  };
  const endSpan = (): void => {
    span?.();
    span = null;
  };
  const fail = (error: unknown): void => {
    if (errors.has(error)) return;
    errors.add(error);
    request.fail(error);
  };

  enter('middleware');
  const stop = followChain(c, {
    called: (index) => {
      const route = routes[index];
      if (route === undefined) return;
      endSpan();
      const layer = ownFunction(route.handler);
      const isHandler = layer.length < 2;
      enter(isHandler ? 'handler' : 'middleware');
      if (isHandler) {
        handlerRan = true;
        request.setRoute(`${c.req.method} ${route.path}`, layer.name === '' ? undefined : layer.name);
        for (const [key, value] of Object.entries<unknown>(c.req.param())) if (typeof value === 'string') request.request.attributes.set(key, value);
      } else middlewareRan = true;
      span = request.beginSpan(layer.name === '' ? '<anonymous>' : layer.name, isHandler ? 'controller' : 'listener');
    },
    caught: (error) => {
      endSpan();
      fail(error);
      enter('onError');
    },
    responded: () => {
      endSpan();
      if (middlewareRan) enter('middleware');
    },
  });

  return {
    fail,
    finish: (status) => {
      stop();
      endSpan();
      const { request: incoming } = request;
      if (!handlerRan && status === 404) request.fail(new NotFoundHttpError(`No route found for "${incoming.data.method} ${incoming.uriForPath(incoming.path)}"`));
      enter('response');
    },
  };
}
