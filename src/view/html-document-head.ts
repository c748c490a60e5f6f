/**
 * The start of every HTML page Loupe itself renders (error pages, profiler pages): doctype,
 * charset, an empty inline icon (so a browser's /favicon.ico never becomes a 404 profile, nor
 * the `latest` one), robots directives, the title and an inline stylesheet. Nothing is loaded
 * from elsewhere. `title` must already be escaped.
 */
export function htmlDocumentHead(options: { readonly title: string; readonly style: string; readonly robots?: string; readonly viewport?: boolean }): string {
  const viewport = (options.viewport ?? true) ? '\n<meta name="viewport" content="width=device-width,initial-scale=1" />' : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<link rel="icon" href="data:," />
<meta name="robots" content="${options.robots ?? 'noindex,nofollow'}" />${viewport}
<title>${options.title}</title>
<style>${options.style}</style>
</head>`;
}
