import { BadRequestHttpError, type Controller } from '../../src';

/** `POST /api/echo`: returns the JSON body it was sent; kernel.view turns it into JSON. */
export const echoController: Controller = {
  name: 'App\\Controller\\EchoController::echo',
  handle: ({ request }) => {
    const body = request.data.body;
    if (body === null || body.length === 0) {
      throw new BadRequestHttpError('Request body is empty.', { code: 'LOUPE_ERR_HTTP_MALFORMED_JSON' });
    }
    let data: unknown;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch (error) {
      const reason = error instanceof Error ? ` ${error.message}` : '';
      throw new BadRequestHttpError(`Could not decode request body: it is not valid JSON.${reason}`, {
        code: 'LOUPE_ERR_HTTP_MALFORMED_JSON',
        cause: error,
      });
    }
    return { echo: data };
  },
};
