import { type LogRecord } from '../kernel/trace';
import { html, type SafeHtml } from '../view/html';
import { htmlDocumentHead } from '../view/html-document-head';
import { type SourceReader } from '../view/read-source-excerpts';
import { renderSourceExcerpt } from '../view/render-source-excerpt';
import { renderStackTrace } from '../view/render-stack-trace';
import { type ErrorStatus, type FlatError, type FlatErrorEntry } from './flatten-error';
import { HTML_ERROR_PAGE_STYLE } from './html-error-page-style';
import { frameLocation, type StackFrame } from './parse-stack';

export interface HtmlErrorOptions {
  /** Shows the class, message, trace and logs; without it only the status line is shown. */
  readonly debug: boolean;
  /** Log entries of the request that failed, shown in debug. */
  readonly logs?: readonly LogRecord[];
  /** The lines around the application's frames, read before rendering (as the Exception panel shows them); none without it. */
  readonly source?: SourceReader;
}

const CONTEXT_MAX = 300;

/** One frame as V8 writes it; the frame standing for hidden ones as what it says. */
function plainFrame(frame: StackFrame): string {
  if (frame.hidden !== undefined) return `    ${frame.function}`;
  return frame.function === '' ? `    at ${frameLocation(frame)}` : `    at ${frame.function} (${frameLocation(frame)})`;
}

/** A trace as the page shows it: its list of frames, and its frames as plain text (`\n    at …` each). */
interface RenderedTrace {
  readonly list: SafeHtml;
  readonly plain: SafeHtml;
}

/**
 * Rendered traces by trace: errors created at the same place with the same callers share one
 * parsed trace (see stackTrace), rendered once. A trace is never changed once flattened.
 */
const renderedTraces = new WeakMap<readonly StackFrame[], RenderedTrace>();

function renderedTrace(trace: readonly StackFrame[]): RenderedTrace {
  let rendered = renderedTraces.get(trace);
  if (rendered === undefined) {
    rendered = { list: renderStackTrace(trace), plain: html`${trace.map((frame) => `\n${plainFrame(frame)}`).join('')}` };
    renderedTraces.set(trace, rendered);
  }
  return rendered;
}

function renderError(error: FlatErrorEntry, position: number, total: number, source: SourceReader | undefined): SafeHtml {
  const code = error.code !== null && html` <span class="error-code">${error.code}</span>`;
  return html`<div class="error-block">
<div class="error-head"><span class="error-index">[${position}/${total}]</span> <span class="error-class">${error.class}</span>${code}</div>
<p class="error-message">${error.message}</p>
${source === undefined ? renderedTrace(error.trace).list : renderStackTrace(error.trace, { details: (frame) => renderSourceExcerpt(source, frame) })}
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

function renderLogs(logs: readonly LogRecord[]): SafeHtml {
  if (logs.length === 0) return html`<p class="empty">No log messages.</p>`;
  const rows = logs.map((log) => {
    const context = Object.entries(log.context).map(([key, value], index) => html`${index > 0 && html`<br />`}${key}: ${describeContextValue(value)}`);
    return html`<tr><td class="level-${log.level}">${log.level}</td><td>${log.at.toFixed(1)} ms</td><td>${log.message}${
      context.length > 0 && html`<div class="context">${context}</div>`
    }</td></tr>\n`;
  });
  return html`<table class="logs">
<thead><tr><th>Level</th><th>Time</th><th>Message</th></tr></thead>
<tbody>
${rows}</tbody>
</table>`;
}

/** The chain as plain text, to copy into a bug report. */
function plainTraces(chain: readonly FlatErrorEntry[]): SafeHtml[] {
  return chain.map((error, index) => html`${index > 0 && '\n\n'}${error.class}: ${error.message}${renderedTrace(error.trace).plain}`);
}

function debugPage(flat: FlatError, logs: readonly LogRecord[], source: SourceReader | undefined): SafeHtml {
  const summary = `${flat.message} (${flat.statusCode} ${flat.statusText})`;
  // Deepest cause first, the outer error last: the order in which they happened.
  const chain: FlatErrorEntry[] = [...flat.previous].reverse();
  chain.push(flat);
  const hierarchy = chain.map((error, index) => html`${index > 0 && html` <span class="sep">&rsaquo;</span> `}${error.class}`);
  // The comments carry the message for whoever reads the source; escaping keeps `-->` in it from ending them.
  return html`<!-- ${summary} -->
${htmlDocumentHead({ title: summary, style: HTML_ERROR_PAGE_STYLE })}
<body>
<header class="header"><div class="container"><h1>Loupe Exception</h1></div></header>
<section class="summary"><div class="container">
<div class="metadata">
<h2 class="hierarchy">${hierarchy}</h2>
<h2 class="http">HTTP ${flat.statusCode} <small>${flat.statusText}</small></h2>
</div>
<h1 class="message">${flat.message}</h1>
</div></section>
<main class="container">
<h3 class="section-title">Exceptions <span class="badge">${chain.length}</span></h3>
${chain.map((error, index) => html`${index > 0 && '\n'}${renderError(error, index + 1, chain.length, source)}`)}
<h3 class="section-title">Logs <span class="badge">${logs.length}</span></h3>
${renderLogs(logs)}
<h3 class="section-title">Stack Traces <span class="badge">${chain.length}</span></h3>
<details><summary>Plain text</summary><pre>${plainTraces(chain)}</pre></details>
</main>
</body>
</html>
<!-- ${flat.message} -->
`;
}

/** The page a visitor sees without debug: the status line and nothing about the error itself. */
function publicPage(flat: ErrorStatus): SafeHtml {
  return html`${htmlDocumentHead({ title: `An Error Occurred: ${flat.statusText}`, style: HTML_ERROR_PAGE_STYLE, robots: 'noindex,nofollow,noarchive', viewport: false })}
<body>
<div class="public">
<h1>Oops! An Error Occurred</h1>
<h2>The server returned a "${flat.statusCode} ${flat.statusText}".</h2>
${flat.exposed === undefined ? '' : html`<p class="message">${flat.exposed.message}${flat.exposed.code === null ? '' : html` <code>${flat.exposed.code}</code>`}</p>`}
<p>Something is broken. Please let us know what you were doing when this error occurred. We will fix it as soon as possible. Sorry for any inconvenience caused.</p>
</div>
</body>
</html>
`;
}

/** Public pages by status line; statuses come from the error code registry, so few ever exist. */
const publicPages = new Map<string, string>();
const MAX_PUBLIC_PAGES = 64;

/**
 * The page a visitor sees without debug, the "Oops! An Error Occurred" page: it says nothing but
 * the status line, so it is the same text for every error of a status, built once (a prod 404
 * otherwise renders the whole page and its stylesheet every time).
 */
export function renderPublicHtmlError(status: ErrorStatus): string {
  // An exposed message is the application's own, and as varied as it wants: never kept.
  if (status.exposed !== undefined) return publicPage(status).toString();
  const key = `${status.statusCode} ${status.statusText}`;
  let page = publicPages.get(key);
  if (page === undefined) {
    page = publicPage(status).toString();
    if (publicPages.size < MAX_PUBLIC_PAGES) publicPages.set(key, page);
  }
  return page;
}

/**
 * The HTML error page, as Symfony's HtmlErrorRenderer: in debug the full page (error chain,
 * stack traces with the application's source lines, logs), else the public page (renderPublicHtmlError). Everything taken from the
 * error or the request is escaped.
 */
export function renderHtmlError(flat: FlatError, options: HtmlErrorOptions): string {
  return options.debug ? debugPage(flat, options.logs ?? [], options.source).toString() : renderPublicHtmlError(flat);
}
