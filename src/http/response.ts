import { encodeJson } from './encode-json';
import { HeaderBag } from './header-bag';

/** A response being built by the kernel; written to the socket once, when the request is done. */
export class Response {
  status: number;
  readonly headers: HeaderBag;
  body: string | Buffer;

  constructor(body: string | Buffer = '', status = 200, headers: Readonly<Record<string, string>> = {}) {
    this.body = body;
    this.status = status;
    this.headers = new HeaderBag(headers);
  }

  /**
   * A JSON response; `Content-Type: application/json`. Encoded as Symfony's JsonResponse does by
   * default: `<`, `>`, `&`, `'` and `"` inside strings are hex escapes, so a JSON body can never be
   * sniffed or embedded as HTML.
   */
  static json(data: unknown, status = 200, headers: Readonly<Record<string, string>> = {}): Response {
    return new Response(encodeJson(data), status, { 'Content-Type': 'application/json', ...headers });
  }

  /** A redirect to `location` with the given 3xx status. */
  static redirect(location: string, status = 302): Response {
    return new Response('', status, { Location: location });
  }

  get isRedirect(): boolean {
    return this.status >= 300 && this.status < 400;
  }
}
