import { html, ProfilerPaths, LoupeResponse, trustedHtml, type Controller, type RouteDefinition, type SafeHtml } from '../../src';

const STYLE = 'body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.3rem .8rem;text-align:left}code{font-size:13px}.notice{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem .8rem}';

function profilerLinks(home: string): SafeHtml {
  return html`<p>The profiler: <a href="${home}">the recent requests</a>, <a href="${ProfilerPaths.LATEST}">the latest profile</a>.</p>`;
}

/**
 * `GET /`: the welcome page, listing every route of the application, and with debug linking to
 * the profiler; `notice`: what is turned off and how to turn it on (the SQL routes without DATABASE_URL).
 */
export function createWelcomeController(routes: () => readonly RouteDefinition[], profilerHome: string | null = null, notice: string | null = null): Controller {
  return {
    name: 'welcome.index',
    handle: () => {
      const rows = routes().map(
        (route) =>
          html`<tr><td>${(route.methods ?? ['ANY']).join(', ')}</td><td><code>${route.path}</code></td><td>${route.name}</td><td><code>${route.controller.name}</code></td></tr>`,
      );
      return new LoupeResponse(
        html`<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><link rel="icon" href="data:,"><title>Welcome to Loupe</title><style>${trustedHtml(STYLE)}</style></head><body><h1>Welcome to Loupe</h1><p>Every request runs through the kernel phases; its trace is in the profiler (see the <code>X-Debug-Token-Link</code> response header).</p>${profilerHome !== null && profilerLinks(profilerHome)}${notice !== null && html`<p class="notice">${notice}</p>`}<table><thead><tr><th>Methods</th><th>Path</th><th>Route</th><th>Controller</th></tr></thead><tbody>${rows}</tbody></table></body></html>`.toString(),
      );
    },
  };
}
