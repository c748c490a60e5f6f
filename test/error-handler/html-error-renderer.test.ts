import test from 'ava';
import { flattenError } from '../../src/error-handler/flatten-error';
import { renderHtmlError } from '../../src/error-handler/html-error-renderer';
import { MethodNotAllowedHttpError, NotFoundHttpError } from '../../src/errors/http-error';
import { LoupeError } from '../../src/errors/loupe-error';
import { type LogRecord } from '../../src/kernel/trace';

const notFound = flattenError(
  new NotFoundHttpError('No route found for "GET http://localhost:8000/foo"', {
    cause: new LoupeError('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'No routes found for "/foo/".'),
  }),
);

const hostile = flattenError(new Error(`<script>alert('x')</script> "quoted" & more --> end`, { cause: new TypeError('<b>inner</b>') }));

test('debug: the first line, the title and the trailing comment carry the escaped message', (t) => {
  const html = renderHtmlError(notFound, { debug: true });
  const summary = 'No route found for &quot;GET http://localhost:8000/foo&quot; (404 Not Found)';
  t.true(html.startsWith(`<!-- ${summary} -->\n`));
  t.true(html.includes(`<title>${summary}</title>`));
  t.true(html.trimEnd().endsWith('<!-- No route found for &quot;GET http://localhost:8000/foo&quot; -->'));
  t.true(html.includes('<meta name="robots" content="noindex,nofollow" />'));
});

test('debug: names Loupe, shows the status, the message in h1 and every error of the chain', (t) => {
  const html = renderHtmlError(notFound, { debug: true });
  t.true(html.includes('Loupe Exception'));
  t.true(html.includes('HTTP 404 <small>Not Found</small>'));
  t.regex(html, /<h1 class="message">No route found for &quot;GET http:\/\/localhost:8000\/foo&quot;<\/h1>/);
  t.true(html.includes('Exceptions <span class="badge">2</span>'));
  t.true(html.includes('No routes found for &quot;/foo/&quot;.'));
  t.true(html.includes('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND'));
});

test('debug: the chain is shown cause first, the outer error last', (t) => {
  const html = renderHtmlError(notFound, { debug: true });
  t.true(html.includes('<h2 class="hierarchy">LoupeError <span class="sep">&rsaquo;</span> NotFoundHttpError</h2>'));
  const inner = html.indexOf('<span class="error-index">[1/2]</span> <span class="error-class">LoupeError</span>');
  const outer = html.indexOf('<span class="error-index">[2/2]</span> <span class="error-class">NotFoundHttpError</span>');
  t.true(inner > 0);
  t.true(outer > inner);

  const deep = flattenError(new Error('outer', { cause: new RangeError('middle', { cause: new TypeError('deepest') }) }));
  const page = renderHtmlError(deep, { debug: true });
  t.true(page.includes('<h2 class="hierarchy">TypeError <span class="sep">&rsaquo;</span> RangeError <span class="sep">&rsaquo;</span> Error</h2>'));
  const order = ['deepest', 'middle', 'outer'].map((message) => page.indexOf(`<p class="error-message">${message}</p>`));
  t.deepEqual([...order].sort((a, b) => a - b), order);
  t.true((order[0] ?? -1) > 0);
});

test('debug: each frame shows its function and file:line', (t) => {
  const flat = flattenError(new MethodNotAllowedHttpError(['GET'], 'nope'));
  const origin = flat.trace[0];
  if (origin === undefined) return t.fail('no frame');
  const html = renderHtmlError(flat, { debug: true });
  t.true(html.includes(`${origin.file}:${origin.line}:${origin.column}`));
  t.true(html.includes('HTTP 405 <small>Method Not Allowed</small>'));
  return undefined;
});

test('debug: everything from the error is escaped', (t) => {
  const html = renderHtmlError(hostile, { debug: true });
  t.false(html.includes('<script>'));
  t.false(html.includes('<b>inner</b>'));
  t.false(html.includes('--> end'));
  t.true(html.includes(`&lt;script&gt;alert('x')&lt;/script&gt; &quot;quoted&quot; &amp; more --&gt; end`));
  t.true(html.includes('&lt;b&gt;inner&lt;/b&gt;'));
  // The one link is the empty inline icon, which keeps browsers from asking for /favicon.ico.
  t.is(html.match(/href=/g)?.length, 1);
  t.true(html.includes('<link rel="icon" href="data:," />'));
  t.false(/<script|src=|@import|url\(/i.test(html), 'loads nothing and runs nothing');
});

test('debug: the log entries are listed, escaped, with their context summarised', (t) => {
  const logs: LogRecord[] = [
    { level: 'info', message: 'Matched route "<home>".', context: { route: 'home' }, at: 1.26 },
    { level: 'critical', message: 'Uncaught Exception Error: "x"', context: { exception: hostile }, at: 3 },
  ];
  const html = renderHtmlError(hostile, { debug: true, logs });
  t.true(html.includes('Logs <span class="badge">2</span>'));
  t.true(html.includes('Matched route &quot;&lt;home&gt;&quot;.'));
  t.true(html.includes('route: &quot;home&quot;'));
  t.true(html.includes('exception: Error: &lt;script&gt;'));
  t.true(html.includes('<td>1.3 ms</td>'));
  t.true(renderHtmlError(notFound, { debug: true }).includes('No log messages.'));
});

test('a log context that cannot be serialised does not break the page', (t) => {
  const logs: LogRecord[] = [{ level: 'error', message: 'm', context: { big: 10n }, at: 0 }];
  t.true(renderHtmlError(notFound, { debug: true, logs }).includes('big: [unserializable]'));
});

test('non-debug: only the status line, nothing about the error', (t) => {
  const html = renderHtmlError(notFound, { debug: false });
  t.true(html.includes('<title>An Error Occurred: Not Found</title>'));
  t.true(html.includes('<h1>Oops! An Error Occurred</h1>'));
  t.true(html.includes('<h2>The server returned a "404 Not Found".</h2>'));
  for (const leak of ['No route found', 'NotFoundHttpError', 'LoupeError', 'No routes found', 'flatten-error', '.ts:', '<!--']) {
    t.false(html.includes(leak), leak);
  }
});

test('non-debug 500: neither message, class, trace nor cause', (t) => {
  const html = renderHtmlError(hostile, { debug: false, logs: [{ level: 'critical', message: 'secret log', context: {}, at: 0 }] });
  t.true(html.includes('<h2>The server returned a "500 Internal Server Error".</h2>'));
  for (const leak of ['script', 'quoted', 'TypeError', 'inner', 'secret log', 'html-error-renderer.test']) t.false(html.includes(leak), leak);
});

test('debug: hidden state-machine frames show as one line saying how many, in the list and in the plain text', (t) => {
  const frames = [
    { function: 'toHttpError', file: '/app/router-listener.ts', line: 24, column: 12 },
    { function: '... 4 state-machine frames hidden (XState)', file: '', line: 0, column: 0, hidden: 4 },
  ];
  const html = renderHtmlError({ ...notFound, trace: frames, previous: [] }, { debug: true });
  t.true(html.includes('<span class="fn">... 4 state-machine frames hidden (XState)</span>'));
  t.true(html.includes('    at toHttpError (/app/router-listener.ts:24:12)\n    ... 4 state-machine frames hidden (XState)'));
});
