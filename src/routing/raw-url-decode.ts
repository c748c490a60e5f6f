/**
 * Percent-decodes a path as PHP's rawurldecode, which Symfony's matcher applies before matching
 * (CompiledUrlMatcherTrait::match): `%2F` becomes a real slash, `+` stays a plus. A sequence that
 * is not valid UTF-8 is kept as it was sent.
 */
export function rawUrlDecode(path: string): string {
  // Most paths have nothing to decode: no regular expression runs for them.
  if (!path.includes('%')) return path;
  return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escaped) => {
    try {
      return decodeURIComponent(escaped);
    } catch {
      return escaped;
    }
  });
}
