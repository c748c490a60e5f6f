/** UTF-8 bytes of `text`. */
export const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Bytes `text` takes inside a JSON document (quotes and escapes included). */
const serializedBytes = (text: string): number => bytesOf(JSON.stringify(text));

const GROUPED = new Intl.NumberFormat('en-US');

/**
 * `text` cut to about `limit` serialized bytes, ending with a marker that says how much was cut
 * (`… (cut: 121,034 more bytes)`), or `text` itself when it is no longer than that.
 */
export function cutText(text: string, limit: number, note = ''): string {
  // Six bytes per character at most (`\u0001`), plus the quotes: short strings need no measuring.
  if (text.length * 6 + 2 <= limit || serializedBytes(text) <= limit) return text;
  // Escapes (`\u0001` is six bytes) make characters and bytes differ: shrink until it fits.
  let keep = Math.min(text.length, limit);
  for (let size = serializedBytes(text.slice(0, keep)); keep > 0 && size > limit; size = serializedBytes(text.slice(0, keep))) {
    keep = Math.min(keep - 1, Math.floor((keep * limit) / size));
  }
  // Never split a surrogate pair: half of one would be stored as a lone escape.
  const code = text.charCodeAt(keep - 1);
  if (code >= 0xd800 && code <= 0xdbff) keep -= 1;
  const kept = text.slice(0, keep);
  return `${kept}… (cut: ${GROUPED.format(bytesOf(text) - bytesOf(kept))} more bytes${note})`;
}

