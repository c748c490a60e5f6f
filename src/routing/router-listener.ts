import { MethodNotAllowedHttpError, NotFoundHttpError } from '../errors/http-error';
import { type Exchange } from '../kernel/exchange';
import { type Listener } from '../kernel/listener';
import { MethodNotAllowedError } from './method-not-allowed-error';
import { requestContextFromRequest, setRequestContext } from './request-context';
import { ResourceNotFoundError } from './resource-not-found-error';
import { type RouteMatch, type Router } from './router';

/** Turns a routing failure into the HTTP error Symfony's RouterListener throws, logging the outcome. */
function toHttpError(exchange: Exchange, error: unknown): unknown {
  const { request, trace } = exchange;
  const target = `${request.method} ${request.uriForPath(request.path)}`;
  if (error instanceof MethodNotAllowedError) {
    const allow = error.allowedMethods.join(', ');
    trace.log('info', 'No route matched.', { path: request.path, method: request.method, reason: `Method Not Allowed (Allow: ${allow})` });
    // Unlike the 404, the 405 message never names the referer (RouterListener, Symfony 5.3+).
    return new MethodNotAllowedHttpError(error.allowedMethods, `No route found for "${target}": Method Not Allowed (Allow: ${allow})`, { cause: error });
  }
  if (error instanceof ResourceNotFoundError) {
    trace.log('info', 'No route matched.', { path: request.path, method: request.method, reason: error.message });
    const referer = request.header('referer');
    const from = referer === undefined || referer === '' ? '' : ` (from "${referer}")`;
    return new NotFoundHttpError(`No route found for "${target}"${from}`, { cause: error });
  }
  return error;
}

function matchRequest(router: Router, exchange: Exchange): RouteMatch {
  try {
    return router.match(exchange.request.method, exchange.request.path);
  } catch (error) {
    throw toHttpError(exchange, error);
  }
}

/**
 * Matches the request to a route (Symfony's RouterListener, kernel.request 32) and records the
 * request context URL generation uses; an unrouted request becomes a 404, a wrong method a 405.
 * An error sub-request arrives with its controller set and keeps its parent's context.
 */
export function createRouterListener(router: Router): Listener {
  return {
    name: 'RouterListener',
    subscriptions: {
      'kernel.request': {
        priority: 32,
        handle: (exchange) => {
          if (exchange.controller !== null) return;
          const { request } = exchange;
          // Reads the Host header: an invalid one throws its 400 here, as RequestContext::fromRequest does.
          setRequestContext(exchange, requestContextFromRequest(request));
          const match = matchRequest(router, exchange);
          const { attributes } = request;
          attributes.set('_route', match.name);
          attributes.set('_controller', match.controller.name);
          for (const [name, value] of Object.entries(match.params)) attributes.set(name, value);
          attributes.set('_route_params', { ...match.params });
          exchange.controller = match.controller;
          exchange.trace.log('info', `Matched route "${match.name}".`, {
            route: match.name,
            route_parameters: { _route: match.name, _controller: match.controller.name, ...match.params },
            request_uri: request.uri,
            method: request.method,
          });
        },
      },
      'kernel.finish_request': {
        priority: 0,
        // As RouterListener::onKernelFinishRequest: a finished sub-request hands URL generation
        // back to its parent's context; the main request has nothing to restore.
        handle: (exchange) => {
          if (exchange.parent !== null) setRequestContext(exchange, null);
        },
      },
    },
  };
}
