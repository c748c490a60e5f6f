import diagnostics from 'node:diagnostics_channel';
import { type IncomingMessage } from 'node:http';

/**
 * The tracing channel Express's router (the `router` package, 2.3 and later: Express 5.3's)
 * publishes each middleware, route handler and error handler it calls on; `error` once per
 * error, where it was thrown, rejected or passed to `next(err)`.
 */
const ROUTER_CHANNEL = 'express.router.request';

/** What the router publishes of one layer call; only the fields read here. */
export interface LayerCall {
  readonly req: IncomingMessage;
  /** The router's Layer: a route's own handlers carry a `method` of their own, middleware none. */
  readonly layer: object;
  readonly handler: { readonly name: string };
  /** Set on the call of a parameter callback (`router.param`). */
  readonly param?: string;
  readonly errorHandler?: boolean;
  readonly error?: unknown;
}

/** What the adapter does as the router calls the application's layers. */
export interface LayerListener {
  /** A middleware, route handler or error handler is called. */
  started(call: LayerCall): void;
  /** Its call is over: it returned, threw, or its promise settled. */
  settled(call: LayerCall): void;
  /** It raised `error` (thrown, rejected, or given to `next`). */
  failed(call: LayerCall): void;
}

function isLayerCall(message: unknown): message is LayerCall {
  const call = message as Partial<LayerCall> | null;
  return typeof call?.req === 'object' && typeof call.layer === 'object' && typeof call.handler === 'function' && call.param === undefined;
}

/** Whether a layer is one of a route's handlers (`app.get(path, handler)`), not a middleware. */
export function isRouteHandler(call: LayerCall): boolean {
  return Object.hasOwn(call.layer, 'method');
}

/**
 * Listens to the router's tracing channel; answers the function that stops listening. A call
 * that returned no promise is over at `end` (the router has then set `result` or `error` on
 * it); one that did, at `asyncEnd`. An older router (Express 4, `router` 2.2) publishes
 * nothing: then nothing is heard and errors need the error middleware.
 */
export function listenToRouter(listener: LayerListener): () => void {
  const channel = diagnostics.tracingChannel(ROUTER_CHANNEL);
  const handlers = {
    start: (message: unknown) => {
      if (isLayerCall(message)) listener.started(message);
    },
    end: (message: unknown) => {
      if (isLayerCall(message) && ('result' in message || 'error' in message)) listener.settled(message);
    },
    asyncStart: () => undefined,
    asyncEnd: (message: unknown) => {
      if (isLayerCall(message)) listener.settled(message);
    },
    error: (message: unknown) => {
      if (isLayerCall(message)) listener.failed(message);
    },
  };
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
