/**
 * The longest prefix of `text` that is at most `maxBytes` bytes in UTF-8, cut between
 * characters. PHP's `substr($message, 0, 2000)` cuts bytes blindly and can leave half a
 * character in the X-Debug-Exception header; this never does.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let cut = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) to the start of the character being cut.
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString('utf8');
}
