import { encodeJson } from './encode-json';
import { HeaderBag } from './header-bag';
import { type ResponseBody } from './response-body';

/** htmlspecialchars with ENT_QUOTES, as RedirectResponse escapes its target. */
const QUOTED: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * A response being built by the kernel; written to the socket once, when the request is done.
 * Its body is text, bytes, or a stream (a `Readable`, an async iterable of chunks, a web
 * `ReadableStream`) written chunk by chunk as the client takes them: see docs/building-apps.md,
 * "Streaming a response".
 */
export class LoupeResponse {
  /** The HTTP status code, 200 by default. */
  status: number;
  /** The headers to write; a `Content-Length` set here is not written, the server computes it from `body` (a streamed body is sent with it). */
  readonly headers: HeaderBag;
  /**
   * The body: text (written as UTF-8) or bytes, sent whole; or a stream, sent chunk by chunk,
   * chunked unless the application set a `Content-Length`. Not sent for a HEAD request.
   */
  body: ResponseBody;

  constructor(body: ResponseBody = '', status = 200, headers: Readonly<Record<string, string>> = {}) {
    this.body = body;
    this.status = status;
    this.headers = new HeaderBag(headers);
  }

  /**
   * A JSON response; `Content-Type: application/json`. Encoded as Symfony's JsonResponse does by
   * default: `<`, `>`, `&`, `'` and `"` inside strings are hex escapes, so a JSON body can never be
   * sniffed or embedded as HTML.
   */
  static json(data: unknown, status = 200, headers: Readonly<Record<string, string>> = {}): LoupeResponse {
    return new LoupeResponse(encodeJson(data), status, { 'Content-Type': 'application/json', ...headers });
  }

  /**
   * A redirect to `url` with the given 3xx status, as Symfony's RedirectResponse: a small HTML
   * page naming the target, and for a 301 no `Cache-Control` (a permanent redirect may be cached).
   */
  static redirect(url: string, status = 302): LoupeResponse {
    const escaped = url.replace(/[&<>"']/g, (char) => QUOTED[char] ?? char);
    const page = `<!DOCTYPE html>
<html>
    <head>
        <meta charset="UTF-8" />
        <meta http-equiv="refresh" content="0;url='${escaped}'" />

        <title>Redirecting to ${escaped}</title>
    </head>
    <body>
        Redirecting to <a href="${escaped}">${escaped}</a>.
    </body>
</html>`;
    const response = new LoupeResponse(page, status, { 'Content-Type': 'text/html; charset=utf-8', Location: url });
    if (status === 301) response.defaultCacheControl = false;
    return response;
  }

  /** False when the response must go out without the default `Cache-Control` (a 301 redirect). */
  defaultCacheControl = true;

  /** Whether the status is a 3xx. */
  get isRedirect(): boolean {
    return this.status >= 300 && this.status < 400;
  }
}
