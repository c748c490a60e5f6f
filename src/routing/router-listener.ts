import { HttpError, MethodNotAllowedHttpError, NotFoundHttpError, PayloadTooLargeHttpError } from '../errors/http-error';
import { withoutStackTraces } from '../errors/without-stack-traces';
import { type Controller } from '../kernel/controller';
import { type RequestEvent } from '../kernel/event/request-event';
import { defineListener, type Listener } from '../kernel/listener';
import { MethodNotAllowedError } from './method-not-allowed-error';
import { requestContextFromRequest, setRequestContext } from './request-context';
import { ResourceNotFoundError } from './resource-not-found-error';
import { routeMiss, routeMissError } from './route-miss';
import { type RouteMatch, type RouteMiss, type Router } from './router';
import { RoutingAttributes } from './routing-attributes';

/** Turns a miss into the HTTP error Symfony's RouterListener throws, logging the outcome; the routing error is its cause. */
function toHttpError(event: RequestEvent, miss: RouteMiss): HttpError {
  const { request } = event;
  const target = `${request.method} ${request.uriForPath(request.path)}`;
  // Entries of the request's log are kept with a detailed trace only: without, none is built.
  const logged = event.exchange.trace.detailed;
  const error = routeMissError(miss, request.path);
  if (error instanceof MethodNotAllowedError) {
    const allow = error.allowedMethods.join(', ');
    if (logged) event.log('info', 'No route matched.', { path: request.path, method: request.method, reason: `Method Not Allowed (Allow: ${allow})` });
    // Unlike the 404, the 405 message never names the referer (RouterListener, Symfony 5.3+).
    return new MethodNotAllowedHttpError(error.allowedMethods, `No route found for "${target}": Method Not Allowed (Allow: ${allow})`, { cause: error });
  }
  if (logged) event.log('info', 'No route matched.', { path: request.path, method: request.method, reason: error.message });
  const referer = request.header('referer');
  const from = referer === undefined || referer === '' ? '' : ` (from "${referer}")`;
  return new NotFoundHttpError(`No route found for "${target}"${from}`, { cause: error });
}

/**
 * The router's answer. Deprecated, until 1.0: a router written when misses were thrown may
 * still throw ResourceNotFoundError or MethodNotAllowedError, taken as the miss they stand for
 * (in a ChainRouter, the routers after it are then not asked). The try costs nothing when
 * nothing throws.
 */
function answerOf(router: Router, method: string, path: string): RouteMatch | RouteMiss {
  try {
    return router.match(method, path);
  } catch (error) {
    if (error instanceof MethodNotAllowedError) return routeMiss(error.allowedMethods);
    if (error instanceof ResourceNotFoundError) return routeMiss();
    throw error;
  }
}

/**
 * The route, or the HTTP error to throw for a request none answers. The error is made only for
 * a miss, without a stack trace unless `stackTraces` (debug shows it; nothing else does), and
 * thrown by the caller: a routed request allocates no error and touches no stack trace limit.
 */
function matchRequest(router: Router, event: RequestEvent, stackTraces: boolean): RouteMatch | HttpError {
  const { method, path } = event.request;
  const answer = answerOf(router, method, path);
  // `!== false`: a match without `matched`, from a router written before misses were answered, is still a match.
  if (answer.matched !== false) return answer;
  return stackTraces ? toHttpError(event, answer) : withoutStackTraces(() => toHttpError(event, answer));
}

/** Matches the request and records the route in the request's attributes and log. */
function routeRequest(router: Router, event: RequestEvent, stackTraces: boolean): Controller {
  const { exchange, request } = event;
  const match = matchRequest(router, event, stackTraces);
  if (match instanceof HttpError) throw match;
  const { attributes } = request;
  attributes.set('_route', match.name);
  attributes.set('_controller', match.controller.name);
  for (const [name, value] of Object.entries(match.params)) attributes.set(name, value);
  attributes.set('_route_params', { ...match.params });
  exchange.controller = match.controller;
  if (!exchange.trace.detailed) return match.controller;
  event.log('info', `Matched route "${match.name}".`, {
    route: match.name,
    route_parameters: { _route: match.name, _controller: match.controller.name, ...match.params },
    request_uri: request.uri,
    method: request.method,
  });
  return match.controller;
}

export interface RouterListenerOptions {
  /**
   * Whether the 404, 405 and 413 it raises capture a stack trace (default true): debug shows
   * them; without debug nothing does (createLoupe passes `config.debug`).
   */
  readonly stackTraces?: boolean;
}

/**
 * Matches the request to a route (Symfony's RouterListener, kernel.request 32) and records the
 * request context URL generation uses; an unrouted request becomes a 404, a wrong method a 405,
 * a body larger than the route's controller accepts a 413. A controller that a listener chose
 * before (RequestEvent.setController) is kept, unmatched. An error sub-request arrives with its
 * controller set and keeps its parent's context.
 */
export function createRouterListener(router: Router, options: RouterListenerOptions = {}): Listener {
  const stackTraces = options.stackTraces ?? true;
  return defineListener('RouterListener', {
    'kernel.request': [
      32,
      (event) => {
        const { exchange, request } = event;
        // The error sub-request renders for its parent, in its parent's context.
        if (exchange.parent !== null && exchange.controller !== null) return;
        // Reads the Host header: an invalid one throws its 400 here, as RequestContext::fromRequest does.
        setRequestContext(exchange, requestContextFromRequest(request));
        exchange.attributes.set(RoutingAttributes.ROUTER, router);
        // A listener before this one chose the controller (RequestEvent.setController): nothing to match,
        // but its controller still generates URLs from this request and keeps its body limit.
        const controller = exchange.controller ?? routeRequest(router, event, stackTraces);
        const limit = controller.maxBodySize;
        const size = request.data.body?.length ?? 0;
        if (limit !== undefined && size > limit) throw stackTraces ? new PayloadTooLargeHttpError(limit) : withoutStackTraces(() => new PayloadTooLargeHttpError(limit));
      },
    ],
    // As RouterListener::onKernelFinishRequest: a finished sub-request hands URL generation
    // back to its parent's context; the main request has nothing to restore.
    'kernel.finish_request': [
      0,
      ({ exchange }) => {
        if (exchange.parent !== null) setRequestContext(exchange, null);
      },
    ],
  });
}
