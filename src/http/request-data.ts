/**
 * Everything the kernel needs from one HTTP request, copied out of the stack-allocated uWS
 * request before the handler returns. Plain data only.
 */
export interface RequestData {
  /** Upper-case method as sent, e.g. `GET`. */
  readonly method: string;
  /** The raw, still percent-encoded path, without the query string. */
  readonly path: string;
  /** The raw query string without the leading `?` (empty when there is none). */
  readonly query: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The client's IP address as text (IPv4, or IPv6 without brackets): the TCP peer, not X-Forwarded-For. */
  readonly remoteAddress: string;
  /** The scheme the request came in with: `http` from Loupe's server and `inject`. */
  readonly scheme: 'http' | 'https';
  /** The local port the request came in on; used when the Host header carries none. */
  readonly serverPort: number;
  /** The request body, or `null` when none was sent. */
  readonly body: Buffer | null;
  /** Set when the body was refused before the kernel ran (e.g. too large). */
  readonly bodyError: Error | null;
}
