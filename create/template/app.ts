import { createLoupe, html, LoupeResponse, serve, type Controller, type CreateApp } from 'loupe-kernel';

// An HTML page: with debug on (APP_ENV=dev, the default) the profiler's toolbar shows at its bottom.
const home: Controller = {
  name: 'home',
  handle: ({ stopwatch }) => {
    stopwatch.start('render');
    const page = html`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>__APP_NAME__</title></head>
  <body>
    <h1>Hello from __APP_NAME__</h1>
    <p>Try <a href="/hello/ada">/hello/ada</a>, then open the <a href="/_profiler/">profiler</a>.</p>
  </body>
</html>`;
    stopwatch.stop('render');
    return new LoupeResponse(page.toString(), 200, { 'Content-Type': 'text/html; charset=utf-8' });
  },
};

// Data a controller returns is sent as JSON.
const hello: Controller = { name: 'hello', handle: ({ params }) => ({ hello: params['name'] }) };

/**
 * The application, made without listening: `serve` below makes one per process, and
 * `npx loupe debug:listeners --app dist/app.js` imports this module to list its listeners.
 */
export const createApp: CreateApp = (config, logger) =>
  createLoupe({
    config,
    logger,
    routes: [
      { name: 'home', path: '/', methods: ['GET'], controller: home },
      { name: 'hello', path: '/hello/{name}', methods: ['GET'], controller: hello },
    ],
  });

// Listens only when run (`npm start`), not when imported.
if (require.main === module) {
  serve(createApp).catch((error: unknown) => {
    process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
