import { html, type HtmlValue, type SafeHtml } from './html';

export interface HtmlDocumentHeadOptions {
  /** Text like any other value: escaped here, so callers pass it as they have it. */
  readonly title: HtmlValue;
  /** The page's stylesheet, made by `pageStyle`. */
  readonly style: SafeHtml;
  readonly robots?: string;
  readonly viewport?: boolean;
}

/**
 * The start of every HTML page Loupe itself renders (error pages, profiler pages): doctype,
 * charset, an empty inline icon (so a browser's /favicon.ico never becomes a 404 profile, nor
 * the `latest` one), robots directives, the title and an inline stylesheet. Nothing is loaded
 * from elsewhere.
 */
export function htmlDocumentHead(options: HtmlDocumentHeadOptions): SafeHtml {
  const viewport = (options.viewport ?? true) && html`\n<meta name="viewport" content="width=device-width,initial-scale=1" />`;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<link rel="icon" href="data:," />
<meta name="robots" content="${options.robots ?? 'noindex,nofollow'}" />${viewport}
<title>${options.title}</title>
<style>${options.style}</style>
</head>`;
}
