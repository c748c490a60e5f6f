import { Response } from '../../http/response';
import { type Controller } from '../../kernel/controller';
import { type RouteDefinition } from '../../routing/route';
import { html } from '../../view/html';

/** `GET /`: the welcome page, listing every route of the application. */
export function createWelcomeController(routes: () => readonly RouteDefinition[]): Controller {
  return {
    name: 'App\\Controller\\WelcomeController::index',
    handle: () => {
      const rows = routes().map(
        (route) =>
          html`<tr><td>${(route.methods ?? ['ANY']).join(', ')}</td><td><code>${route.path}</code></td><td>${route.name}</td><td><code>${route.controller.name}</code></td></tr>`,
      );
      return new Response(
        html`<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><link rel="icon" href="data:,"><title>Welcome to Loupe</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.3rem .8rem;text-align:left}code{font-size:13px}</style></head>
<body><h1>Welcome to Loupe</h1>
<p>Every request runs through the kernel phases; its trace is in the profiler (see the <code>X-Debug-Token-Link</code> response header).</p>
<table><thead><tr><th>Methods</th><th>Path</th><th>Route</th><th>Controller</th></tr></thead><tbody>${rows}</tbody></table>
</body></html>`.toString(),
      );
    },
  };
}
