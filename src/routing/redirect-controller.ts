import { LoupeResponse } from '../http/response';
import { type Controller } from '../kernel/controller';

/**
 * What the router answers when a GET or HEAD path matches only with its trailing slash toggled
 * (Symfony's RedirectController::urlRedirectAction): a redirect to the absolute URL of
 * `params.path` on the request's scheme, host (lower-cased, IPv6 brackets kept) and port (left
 * out when it is the scheme's default), 301 when `params.permanent` is `'true'`, keeping the
 * request's query string.
 */
export const redirectController: Controller = {
  name: 'routing.urlRedirect',
  handle: ({ params, request }) => {
    const query = request.data.query;
    const location = request.schemeAndHttpHost + (params['path'] ?? '/') + (query === '' ? '' : `?${query}`);
    return LoupeResponse.redirect(location, params['permanent'] === 'true' ? 301 : 302);
  },
};
