const REPLACEMENTS: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** A lone UTF-16 surrogate: not valid text, replaced as PHP's ENT_SUBSTITUTE replaces invalid UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for HTML content and double-quoted attributes, as PHP's
 * `htmlspecialchars($s, ENT_COMPAT | ENT_SUBSTITUTE)`: `& < > "` are escaped, `'` is kept.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => REPLACEMENTS[char] ?? char).replace(LONE_SURROGATE, '\uFFFD');
}
