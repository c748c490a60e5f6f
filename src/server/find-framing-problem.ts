/** The `Content-Length` and `Transfer-Encoding` header lines of a request, one entry per line. */
export interface FramingHeaders {
  readonly contentLength: readonly string[];
  readonly transferEncoding: readonly string[];
}

/**
 * Why the body's length cannot be trusted, or `null`. RFC 9112 §6.3 has a server answer 400 and
 * close the connection for differing Content-Length values and for a Transfer-Encoding whose final
 * coding is not `chunked`; a second Transfer-Encoding line is refused too. uWS frames such a body
 * its own way (the first Content-Length wins; `chunked, identity` is read as chunked), so a proxy
 * in front that reads it another way would let a request hidden in the body through
 * (request smuggling, CWE-444). Only what uWS passes on can be checked: see the README's uWS table
 * for what it answers, or reads leniently, before Loupe sees the request.
 */
export function findFramingProblem(framing: FramingHeaders): string | null {
  const lengths = new Set(framing.contentLength.flatMap((line) => line.split(',')).map((value) => value.trim()));
  if (lengths.size > 1) return 'The request has Content-Length values that differ.';
  if (framing.transferEncoding.length > 1) return 'The request has more than one Transfer-Encoding header.';
  const [encoding] = framing.transferEncoding;
  if (encoding === undefined) return null;
  const codings = encoding.split(',').map((coding) => coding.trim().toLowerCase());
  if (codings.at(-1) !== 'chunked') return 'The request\'s final transfer coding is not "chunked".';
  return null;
}
