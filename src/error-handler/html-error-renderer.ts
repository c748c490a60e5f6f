import { htmlDocumentHead } from '../view/html-document-head';
import { type LogRecord } from '../kernel/trace';
import { escapeHtml } from '../view/escape-html';
import { type FlatError, type FlatErrorEntry } from './flatten-error';
import { HTML_ERROR_PAGE_STYLE } from './html-error-page-style';
import { type StackFrame } from './parse-stack';

export interface HtmlErrorOptions {
  /** Shows the class, message, trace and logs; without it only the status line is shown. */
  readonly debug: boolean;
  /** Log entries of the request that failed, shown in debug. */
  readonly logs?: readonly LogRecord[];
}

const CONTEXT_MAX = 300;

function isVendor(frame: StackFrame): boolean {
  return frame.file.startsWith('node:') || frame.file.includes('/node_modules/') || frame.file === '';
}

function location(frame: StackFrame): string {
  return frame.line === 0 ? frame.file : `${frame.file}:${frame.line}:${frame.column}`;
}

function renderFrames(trace: readonly StackFrame[]): string {
  if (trace.length === 0) return '<p class="trace-message empty">No stack trace.</p>';
  const items = trace.map(
    (frame) =>
      `<li class="frame${isVendor(frame) ? ' vendor' : ''}"><span class="fn">${escapeHtml(frame.function || '(anonymous)')}</span>` +
      ` <span class="loc">${escapeHtml(location(frame))}</span></li>`,
  );
  return `<ol class="frames">\n${items.join('\n')}\n</ol>`;
}

function renderError(error: FlatErrorEntry, position: number, total: number): string {
  const code = error.code === null ? '' : ` <span class="trace-code">${escapeHtml(error.code)}</span>`;
  return `<div class="trace">
<div class="trace-head"><span class="trace-index">[${position}/${total}]</span> <span class="trace-class">${escapeHtml(error.class)}</span>${code}</div>
<p class="trace-message">${escapeHtml(error.message)}</p>
${renderFrames(error.trace)}
</div>`;
}

/** A short text for one context value: an error as `Class: message`, anything else as JSON. */
function describeContextValue(value: unknown): string {
  try {
    if (typeof value === 'object' && value !== null) {
      const { class: cls, message } = value as { class?: unknown; message?: unknown };
      if (typeof cls === 'string' && typeof message === 'string') return `${cls}: ${message}`;
    }
    const json = JSON.stringify(value) ?? String(value);
    return json.length > CONTEXT_MAX ? `${json.slice(0, CONTEXT_MAX)}…` : json;
  } catch {
    // A context is whatever a listener logged: a getter or a BigInt must not break the page.
    return '[unserializable]';
  }
}

function renderLogs(logs: readonly LogRecord[]): string {
  if (logs.length === 0) return '<p class="empty">No log messages.</p>';
  const rows = logs.map((log) => {
    const context = Object.entries(log.context)
      .map(([key, value]) => `${escapeHtml(key)}: ${escapeHtml(describeContextValue(value))}`)
      .join('<br />');
    return `<tr><td class="level-${escapeHtml(log.level)}">${escapeHtml(log.level)}</td><td>${log.at.toFixed(1)} ms</td><td>${escapeHtml(log.message)}${
      context === '' ? '' : `<div class="context">${context}</div>`
    }</td></tr>`;
  });
  return `<table class="logs">\n<thead><tr><th>Level</th><th>Time</th><th>Message</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

/** The chain as plain text, to copy into a bug report. */
function plainTraces(chain: readonly FlatErrorEntry[]): string {
  return chain
    .map((error) => [`${error.class}: ${error.message}`, ...error.trace.map((frame) => (frame.function === '' ? `    at ${location(frame)}` : `    at ${frame.function} (${location(frame)})`))].join('\n'))
    .join('\n\n');
}

function debugPage(flat: FlatError, logs: readonly LogRecord[]): string {
  const message = escapeHtml(flat.message);
  const statusText = escapeHtml(flat.statusText);
  const summary = `${message} (${flat.statusCode} ${statusText})`;
  // Deepest cause first, the outer error last: the order in which they happened.
  const chain: FlatErrorEntry[] = [...flat.previous].reverse();
  chain.push(flat);
  const hierarchy = chain.map((error) => escapeHtml(error.class)).join(' <span class="sep">&rsaquo;</span> ');
  return `<!-- ${summary} -->
${htmlDocumentHead({ title: summary, style: HTML_ERROR_PAGE_STYLE })}
<body>
<header class="header"><div class="container"><h1>Loupe Exception</h1></div></header>
<section class="summary"><div class="container">
<div class="metadata">
<h2 class="hierarchy">${hierarchy}</h2>
<h2 class="http">HTTP ${flat.statusCode} <small>${statusText}</small></h2>
</div>
<h1 class="message">${message}</h1>
</div></section>
<main class="container">
<h3 class="section-title">Exceptions <span class="count">${chain.length}</span></h3>
${chain.map((error, index) => renderError(error, index + 1, chain.length)).join('\n')}
<h3 class="section-title">Logs <span class="count">${logs.length}</span></h3>
${renderLogs(logs)}
<h3 class="section-title">Stack Traces <span class="count">${chain.length}</span></h3>
<details><summary>Plain text</summary><pre>${escapeHtml(plainTraces(chain))}</pre></details>
</main>
</body>
</html>
<!-- ${message} -->
`;
}

/** The page a visitor sees without debug: the status line and nothing about the error itself. */
function publicPage(flat: FlatError): string {
  const statusText = escapeHtml(flat.statusText);
  return `${htmlDocumentHead({ title: `An Error Occurred: ${statusText}`, style: HTML_ERROR_PAGE_STYLE, robots: 'noindex,nofollow,noarchive', viewport: false })}
<body>
<div class="public">
<h1>Oops! An Error Occurred</h1>
<h2>The server returned a "${flat.statusCode} ${statusText}".</h2>
<p>Something is broken. Please let us know what you were doing when this error occurred. We will fix it as soon as possible. Sorry for any inconvenience caused.</p>
</div>
</body>
</html>
`;
}

/**
 * The HTML error page, as Symfony's HtmlErrorRenderer: in debug the full page (error chain,
 * stack traces, logs), else the "Oops! An Error Occurred" page. Everything taken from the
 * error or the request is escaped.
 */
export function renderHtmlError(flat: FlatError, options: HtmlErrorOptions): string {
  return options.debug ? debugPage(flat, options.logs ?? []) : publicPage(flat);
}
