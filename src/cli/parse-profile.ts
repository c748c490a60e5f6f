import { type Profile } from '../profiler/profile';
import { CliError } from './cli-error';

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number';
const isArray: Check = (value) => Array.isArray(value);
const isRecord: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields the readable view relies on; what else a profile holds is shown as found. */
const SHAPE: readonly (readonly [string, Check])[] = [
  ['token', isString],
  ['method', isString],
  ['url', isString],
  ['ip', isString],
  ['time', isNumber],
  ['statusCode', isNumber],
  ['duration', isNumber],
  ['children', isArray],
  ['phases', isArray],
  ['listeners', isArray],
  ['errors', isArray],
  ['logs', isArray],
  ['routing', isRecord],
  ['request', isRecord],
  ['response', isRecord],
];

/**
 * The stored JSON of `token` as a Profile. Checks the fields the readable view reads, so that a
 * profile written by another version fails with a message rather than a TypeError mid-output.
 */
export function parseProfile(token: string, json: string): Profile {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new CliError(1, `The profile stored under "${token}" is not valid JSON.`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(1, `The profile stored under "${token}" is not a JSON object.`);
  }
  const fields = value as Record<string, unknown>;
  const bad = SHAPE.filter(([name, check]) => !check(fields[name])).map(([name]) => name);
  if (bad.length > 0) {
    throw new CliError(
      1,
      `The profile stored under "${token}" is not one this version of loupe can show (missing or unexpected: ${bad.join(', ')}); ` +
        'profiler:show --json prints it as stored.',
    );
  }
  return value as Profile;
}
