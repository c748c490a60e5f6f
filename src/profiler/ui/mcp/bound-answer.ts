/** Characters an answer of the MCP server holds at most: about 5 000 tokens, a fair share of an agent's context. */
export const MCP_ANSWER_CHARS = 20_000;

/** Characters kept for the marker that says what was cut. */
const MARKER_ROOM = 300;

/**
 * `text` as it is when it fits in `max` characters; else its first whole lines within `max`,
 * then a last line that says how much was cut and how to ask for less. Never longer than `max`.
 */
export function boundAnswer(text: string, max: number = MCP_ANSWER_CHARS): string {
  if (text.length <= max) return text;
  const room = max - MARKER_ROOM;
  const lastLine = text.lastIndexOf('\n', room);
  // A single line longer than the room is cut where the room ends.
  const kept = text.slice(0, lastLine > 0 ? lastLine + 1 : room);
  const rest = text.slice(kept.length);
  const lines = rest.split('\n').filter((line) => line !== '').length;
  return `${kept}${kept.endsWith('\n') ? '' : '\n'}… truncated: ${lines} more ${lines === 1 ? 'line' : 'lines'} (${rest.length} characters) not shown. An answer holds at most ${max} characters: ask for less (one panel, a smaller limit, one token).\n`;
}
