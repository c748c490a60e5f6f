import test from 'ava';
import { flattenError } from '../../src/error-handler/flatten-error';
import { renderHtmlError } from '../../src/error-handler/html-error-renderer';
import { type StackFrame } from '../../src/error-handler/parse-stack';
import { renderStackTrace } from '../../src/view/render-stack-trace';

const frames: StackFrame[] = [
  { function: 'handle', file: '/app/src/controller.ts', line: 12, column: 5 },
  { function: '', file: '/app/node_modules/lib/index.js', line: 3, column: 1 },
  { function: 'processTicksAndRejections', file: 'node:internal/process/task_queues', line: 95, column: 5 },
  { function: 'async Promise.all (index 0)', file: '', line: 0, column: 0 },
];

test('each frame shows its function and file:line:column, one list item a frame, in order', (t) => {
  t.is(
    renderStackTrace(frames).toString(),
    `<ol class="frames">
<li class="frame"><span class="fn">handle</span> <span class="loc">/app/src/controller.ts:12:5</span></li>
<li class="frame vendor"><span class="fn">(anonymous)</span> <span class="loc">/app/node_modules/lib/index.js:3:1</span></li>
<li class="frame vendor"><span class="fn">processTicksAndRejections</span> <span class="loc">node:internal/process/task_queues:95:5</span></li>
<li class="frame vendor"><span class="fn">async Promise.all (index 0)</span> <span class="loc"></span></li>
</ol>`,
  );
});

test('a frame without a position shows its file alone', (t) => {
  const html = renderStackTrace([{ function: 'f', file: 'native', line: 0, column: 0 }]).toString();
  t.true(html.includes('<span class="loc">native</span>'));
});

test('function names and files are escaped', (t) => {
  const html = renderStackTrace([{ function: '<img src=x onerror=alert(1)>', file: '/a/"b"&<c>.ts', line: 1, column: 2 }]).toString();
  t.false(html.includes('<img'));
  t.true(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
  t.true(html.includes('/a/&quot;b&quot;&amp;&lt;c&gt;.ts:1:2'));
});

test('an empty trace says so', (t) => {
  t.is(renderStackTrace([]).toString(), '<p class="error-message empty">No stack trace.</p>');
});

test('the error page draws every trace of the chain with this renderer', (t) => {
  const flat = flattenError(new Error('outer', { cause: new TypeError('inner') }));
  const page = renderHtmlError(flat, { debug: true });
  t.true(flat.trace.length > 0);
  for (const entry of [flat, ...flat.previous]) t.true(page.includes(renderStackTrace(entry.trace).toString()), entry.message);
  t.true(renderHtmlError(flattenError('not an error'), { debug: true }).includes(renderStackTrace([]).toString()));
});
