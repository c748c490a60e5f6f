import { type Controller } from '../../src';

/** `POST /api/echo`: returns the JSON body it was sent; kernel.view turns it into JSON. */
export const echoController: Controller = {
  name: 'echo.echo',
  handle: ({ request }) => ({ echo: request.json() }),
};
