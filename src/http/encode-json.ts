/** JSON_HEX_TAG | JSON_HEX_AMP | JSON_HEX_APOS | JSON_HEX_QUOT, JsonResponse's default encoding options. */
const HEX: Readonly<Record<string, string>> = { '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', "'": '\\u0027', '\\"': '\\u0022' };

/**
 * `JSON.stringify(value)` with the characters that matter to HTML hex-escaped inside strings, as
 * PHP's json_encode with JsonResponse::DEFAULT_ENCODING_OPTIONS. Only string contents change: the
 * quotes that delimit strings stay, and an escaped backslash is never split from what follows.
 */
export function encodeJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  // Fast path: most bodies hold none of these characters.
  if (!/[<>&']|\\"/.test(json)) return json;
  return json.replace(/\\.|[<>&']/g, (match) => HEX[match] ?? match);
}
