/** RFC 3986 unreserved characters, the only bytes PHP's rawurlencode leaves as they are. */
function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    byte === 0x2d || // -
    byte === 0x2e || // .
    byte === 0x5f || // _
    byte === 0x7e // ~
  );
}

/**
 * PHP's `rawurlencode`: every UTF-8 byte outside `A-Za-z0-9-_.~` as `%XX` (upper-case hex).
 * Works on bytes rather than with encodeURIComponent, which leaves `!'()*` alone and throws
 * on a lone surrogate (Buffer encodes that as U+FFFD instead).
 */
export function rawUrlEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += isUnreserved(byte) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
