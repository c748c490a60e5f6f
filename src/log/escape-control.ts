/**
 * C0 controls, DEL and C1 controls. ESC (C0) and CSI/OSC (C1) open terminal escape sequences:
 * a value printed raw could clear the screen, set the window title or rewrite earlier lines.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
/** What JSON.stringify leaves raw inside strings: DEL and the C1 controls. */
const JSON_RAW_CONTROL = /[\u007f-\u009f]/g;

const hex = (char: string): string => char.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * `value` safe for one cell or line of terminal output: every control character, newline and
 * tab included, shown as `\xHH` (ESC as `\x1b`), so that what follows it prints as plain text.
 */
export function escapeControl(value: string): string {
  return value.replace(CONTROL, (char) => `\\x${hex(char)}`);
}

/** `text` with its lines kept, every other control character shown as `\xHH`. */
export function escapeControlKeepingLines(text: string): string {
  return text.replace(CONTROL_BUT_NEWLINE, (char) => `\\x${hex(char)}`);
}

/**
 * JSON text safe for a terminal and still the same JSON: JSON.stringify escapes C0 controls
 * but not DEL or C1, which become `\u00HH` escapes (only strings can hold them).
 */
export function escapeJsonControl(json: string): string {
  return json.replace(JSON_RAW_CONTROL, (char) => `\\u00${hex(char)}`);
}
