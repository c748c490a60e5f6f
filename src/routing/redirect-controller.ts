import { Response } from '../http/response';
import { type Controller } from '../kernel/controller';

/**
 * What the router answers when a GET or HEAD path matches only with its trailing slash toggled
 * (Symfony's RedirectController::urlRedirectAction): a redirect to `params.path`, 301 when
 * `params.permanent` is `'true'`, keeping the request's query string.
 */
export const redirectController: Controller = {
  name: 'Loupe\\Routing\\RedirectController::urlRedirectAction',
  handle: ({ params, request }) => {
    const query = request.data.query;
    const location = (params['path'] ?? '/') + (query === '' ? '' : `?${query}`);
    return Response.redirect(location, params['permanent'] === 'true' ? 301 : 302);
  },
};
