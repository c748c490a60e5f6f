import { defineListener } from '../../src/kernel/listener';

/**
 * An application's own kernel.response listener (at 10, before Loupe's toolbar at -128) that sets
 * what the query asks for, so tests can have any page answer as an application might:
 * `?csp=<policy>` a Content-Security-Policy, `?disposition=<value>` a Content-Disposition,
 * `?toolbar=<value>` an X-Debug-Toolbar header, `?cut=1` the body without its `</body></html>`.
 */
export const responseDirectivesListener = defineListener('ResponseDirectivesListener', {
  'kernel.response': [
    10,
    ({ request, response, isMainRequest }) => {
      if (!isMainRequest) return;
      const query = request.queryParams;
      const csp = query.get('csp');
      if (csp !== null) response.headers.set('Content-Security-Policy', csp);
      const disposition = query.get('disposition');
      if (disposition !== null) response.headers.set('Content-Disposition', disposition);
      const toolbar = query.get('toolbar');
      if (toolbar !== null) response.headers.set('X-Debug-Toolbar', toolbar);
      if (query.get('cut') === '1') response.body = String(response.body).replace(/<\/body>\s*<\/html>\s*$/i, '');
    },
  ],
});
