import { type ProfileSummary } from './profile';
import { type FoundRow } from './storage/profile-storage';

const isString = (value: unknown): boolean => typeof value === 'string';
const isNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

/** The search row's fields, each with what it must be (the words of parseProfile). */
const FIELDS: readonly (readonly [keyof ProfileSummary, string, (value: unknown) => boolean])[] = [
  ['token', 'a string', isString],
  ['parent', 'a string or null', (value) => value === null || isString(value)],
  ['ip', 'a string', isString],
  ['method', 'a string', isString],
  ['url', 'a string', isString],
  ['time', 'a number', isNumber],
  ['statusCode', 'a number', isNumber],
  // Indexed later: absent in older rows.
  ['duration', 'a number', (value) => value === undefined || isNumber(value)],
  ['aborted', 'true or false', (value) => value === undefined || typeof value === 'boolean'],
  ['route', 'a string or null', (value) => value === undefined || value === null || isString(value)],
  ['queries', 'a number', (value) => value === undefined || isNumber(value)],
  ['queryTime', 'a number', (value) => value === undefined || isNumber(value)],
  ['nPlusOne', 'a number', (value) => value === undefined || isNumber(value)],
  ['httpCalls', 'a number', (value) => value === undefined || isNumber(value)],
  ['redisCommands', 'a number', (value) => value === undefined || isNumber(value)],
];

/**
 * A stored search row (`token` is its key in the index) as a summary, or why it cannot be read:
 * one corrupted row must not make a whole listing fail. The reason never quotes the row.
 */
export function parseSummary(token: string, json: string): FoundRow {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, token, error: 'it is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, token, error: 'it is not a JSON object' };
  const record = value as Record<string, unknown>;
  for (const [field, expected, check] of FIELDS) {
    if (!check(record[field])) return { ok: false, token, error: `the field "${field}" is missing or not ${expected}` };
  }
  return { ok: true, summary: record as unknown as ProfileSummary };
}
