/** JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT, JsonResponse's default encoding options. */
const HEX: Readonly<Record<string, string>> = { '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', "'": '\\u0027', '\\"': '\\u0022' };

/** What json_encode escapes besides: `/` (without JSON_UNESCAPED_SLASHES) and every non-ASCII UTF-16 unit (without JSON_UNESCAPED_UNICODE). */
const ESCAPED = /\\.|[<>&'/\u0080-\uffff]/g;

function escape(match: string): string {
  const hex = HEX[match];
  if (hex !== undefined) return hex;
  if (match === '/') return '\\/';
  // json_encode writes \u escapes in lower case (and astral characters as their two surrogates).
  if (match.length === 1) return `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return match;
}

/**
 * `JSON.stringify(value)` encoded as PHP's json_encode with JsonResponse::DEFAULT_ENCODING_OPTIONS:
 * inside strings, the characters that matter to HTML hex-escaped, `/` as `\/` and non-ASCII as
 * `\uXXXX`, so that a body compares byte for byte with Symfony's. Only string contents change:
 * the quotes that delimit strings stay, and an escaped backslash is never split from what follows.
 */
export function encodeJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  // Fast path: most bodies hold none of these characters.
  if (!/[<>&'/\u0080-\uffff]|\\"/.test(json)) return json;
  return json.replace(ESCAPED, escape);
}
