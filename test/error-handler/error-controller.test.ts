import test from 'ava';
import { createErrorController } from '../../src/error-handler/error-controller';
import { MethodNotAllowedHttpError, NotFoundHttpError, UnauthorizedHttpError } from '../../src/errors/http-error';
import { LoupeResponse } from '../../src/http/response';
import { exchangeFor } from '../helpers/request-data';

/** Runs the error controller the way the kernel does: in the error sub-request of a failed main request. */
async function render(error: unknown, debug: boolean, headers: Record<string, string> = {}): Promise<LoupeResponse> {
  const controller = createErrorController({ debug });
  const main = exchangeFor({ method: 'POST', path: '/config.yaml', headers });
  main.trace.log('critical', 'Uncaught Exception logged <before>', {});
  const sub = main.createErrorSubRequest(error, controller);
  const args = sub.resolveArguments();
  if (args.error !== error) throw new Error('the error sub-request must hand the controller the error it renders');
  // The debug HTML page reads the application's source lines first: it is answered asynchronously.
  const result: unknown = await controller.handle(args);
  if (!(result instanceof LoupeResponse)) throw new Error('the error controller must return a Response');
  return result;
}

const json = { accept: 'application/json' };

test('it is named error_controller', (t) => {
  t.is(createErrorController({ debug: true }).name, 'error_controller');
});

test('HTML by default: status, content type, Vary and the debug page with the parent request\'s logs', async (t) => {
  const response = await render(new NotFoundHttpError('No route found for "GET http://127.0.0.1:8000/config.yaml"'), true);
  t.is(response.status, 404);
  t.is(response.headers.get('Content-Type'), 'text/html; charset=UTF-8');
  t.is(response.headers.get('Vary'), 'Accept');
  const body = response.body.toString();
  t.true(body.startsWith('<!-- No route found for &quot;GET http://127.0.0.1:8000/config.yaml&quot; (404 Not Found) -->'));
  t.true(body.includes('Uncaught Exception logged &lt;before&gt;'));
});

test('the debug page shows the source lines around the application\'s frames, as the Exception panel does, escaped', async (t) => {
  const error = new Error('The source is shown.'); // ERROR_PAGE_SOURCE_MARKER <b>kept as text</b>
  const body = (await render(error, true)).body.toString();
  t.regex(body, /<div class="source">[^]*?<span class="line current"><span class="no">\d+<\/span>  const error = new Error\('The source is shown\.'\); \/\/ ERROR_PAGE_SOURCE_MARKER &lt;b&gt;kept as text&lt;\/b&gt;<\/span>/);
  t.regex(body, /\.source \{[^}]*\}/, 'the page\'s stylesheet sets the lines');
  t.true(body.includes('node_modules/ava'), 'the test runner\'s frames are listed');
  t.false(/node_modules[^<]*<\/span><div class="source">/.test(body), 'without their lines: only the application\'s source is read');
});

test('Accept: application/json gives the problem document', async (t) => {
  const response = await render(new NotFoundHttpError('No route found for "GET /x"'), true, json);
  t.is(response.status, 404);
  t.is(response.headers.get('Content-Type'), 'application/json');
  t.is(response.headers.get('Vary'), 'Accept');
  const problem = JSON.parse(response.body.toString()) as Record<string, unknown>;
  t.like(problem, { type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: 404, detail: 'No route found for "GET /x"', class: 'NotFoundHttpError' });
  t.true(Array.isArray(problem['trace']));
  t.deepEqual(problem['previous'], []);
});

test('formats other than JSON fall back to HTML', async (t) => {
  for (const accept of ['application/xml', 'text/plain', 'image/png', '*/*']) {
    t.is((await render(new Error('x'), true, { accept })).headers.get('Content-Type'), 'text/html; charset=UTF-8', accept);
  }
});

test('debug headers: X-Debug-Exception is the rawurlencoded message, -File the origin file and line', async (t) => {
  const error = new NotFoundHttpError(`No route found for "GET http://127.0.0.1:8000/é (x)!"`);
  const response = await render(error, true);
  t.is(response.headers.get('X-Debug-Exception'), 'No%20route%20found%20for%20%22GET%20http%3A%2F%2F127.0.0.1%3A8000%2F%C3%A9%20%28x%29%21%22');
  t.regex(response.headers.get('X-Debug-Exception-File') ?? '', /^%2F.*error-controller\.test\.ts:\d+$/);
  t.regex(response.headers.get('X-Debug-Exception-File') ?? '', /^[A-Za-z0-9\-_.~%]+:\d+$/);
});

test('X-Debug-Exception holds at most 2000 bytes of a multibyte message, cut between characters', async (t) => {
  // '€' is three bytes: 666 fill 1998 bytes, a 667th would need 2001.
  const response = await render(new Error('€'.repeat(1000)), true);
  t.is(response.headers.get('X-Debug-Exception'), '%E2%82%AC'.repeat(666));
  const ascii = (await render(new Error(`${'a'.repeat(1999)}é`), true)).headers.get('X-Debug-Exception');
  t.is(ascii, 'a'.repeat(1999));
});

test('the error\'s own headers win over the renderer\'s', async (t) => {
  const response = await render(new MethodNotAllowedHttpError(['GET', 'HEAD'], 'No route found for "POST /x": Method Not Allowed (Allow: GET, HEAD)'), true, json);
  t.is(response.status, 405);
  t.is(response.headers.get('Allow'), 'GET, HEAD');
  const overriding = new NotFoundHttpError('x');
  Object.defineProperty(overriding, 'headers', { value: { 'content-type': 'text/x-custom', Vary: 'Cookie' } });
  const custom = await render(overriding, true);
  t.is(custom.headers.get('Content-Type'), 'text/x-custom');
  t.is(custom.headers.get('Vary'), 'Cookie');
  t.is((await render(new UnauthorizedHttpError('who?', 'Basic realm="loupe"'), false)).headers.get('WWW-Authenticate'), 'Basic realm="loupe"');
});

test('without debug nothing about a 500 leaves the server', async (t) => {
  const error = new TypeError('database password is hunter2', { cause: new Error('inner secret') });
  for (const headers of [{}, json]) {
    const response = await render(error, false, headers);
    t.is(response.status, 500);
    t.false(response.headers.has('X-Debug-Exception'));
    t.false(response.headers.has('X-Debug-Exception-File'));
    const everything = `${response.body.toString()}\n${JSON.stringify(response.headers.toJSON())}`;
    for (const leak of ['hunter2', 'TypeError', 'inner secret', 'error-controller.test', 'logged']) t.false(everything.includes(leak), leak);
  }
  t.deepEqual(JSON.parse((await render(error, false, json)).body.toString()), {
    type: 'https://tools.ietf.org/html/rfc2616#section-10',
    title: 'An error occurred',
    status: 500,
    detail: 'Internal Server Error',
  });
});

test('without debug a 404 shows only the status line', async (t) => {
  const html = (await render(new NotFoundHttpError('No route found for "GET /secret-path"'), false)).body.toString();
  t.true(html.includes('<h2>The server returned a "404 Not Found".</h2>'));
  t.false(html.includes('secret-path'));
  t.is(JSON.parse((await render(new NotFoundHttpError('No route found for "GET /secret-path"'), false, json)).body.toString()).detail, 'Not Found');
});

test('a thrown non-Error renders a 500 without throwing', async (t) => {
  const response = await render('just a string', true);
  t.is(response.status, 500);
  t.is(response.headers.get('X-Debug-Exception'), 'just%20a%20string');
  t.false(response.headers.has('X-Debug-Exception-File'));
});
