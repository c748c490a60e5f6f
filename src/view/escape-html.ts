const REPLACEMENTS: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Anything escapeHtml changes: one of `& < > "`, or a UTF-16 surrogate (a lone one is replaced). */
const NEEDS_ESCAPING = /[&<>"\uD800-\uDFFF]/;
const SPECIAL = /[&<>"]/g;
const SURROGATE = /[\uD800-\uDFFF]/;
/** A lone UTF-16 surrogate: not valid text, replaced as PHP's ENT_SUBSTITUTE replaces invalid UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for HTML content and double-quoted attributes, as PHP's
 * `htmlspecialchars($s, ENT_COMPAT | ENT_SUBSTITUTE)`: `& < > "` are escaped, `'` is kept.
 * Most of a page's values (names, numbers, paths) need nothing: one test, and the text itself.
 */
export function escapeHtml(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return text;
  const escaped = text.replace(SPECIAL, (char) => REPLACEMENTS[char] ?? char);
  return SURROGATE.test(escaped) ? escaped.replace(LONE_SURROGATE, '\uFFFD') : escaped;
}
