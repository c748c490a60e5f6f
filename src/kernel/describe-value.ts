/**
 * A short description of any value for messages and logs, after Symfony's
 * ControllerDoesNotReturnResponseException: `null`, `a string ("…")`, `an object of type X`.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  // Array.from counts code points, so an emoji is never cut in half.
  if (typeof value === 'string') return `a string ("${value.length > 40 ? `${Array.from(value).slice(0, 40).join('')}…` : value}")`;
  if (Array.isArray(value)) return `an array (${value.length} items)`;
  if (typeof value === 'object') return `an object of type ${value.constructor?.name ?? 'Object'}`;
  return `a ${typeof value} (${String(value)})`;
}
