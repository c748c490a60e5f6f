import { LoupeError } from '../errors/loupe-error';
import { flag, fraction, integer, invalid, list, type Env } from './env-values';

/** One setting: its path among the options given in code (`config.server.port`) and its environment variable (`PORT`). */
export interface Setting {
  readonly path: string;
  readonly variable: string;
}

/** How a value given in code reads in a message: strings quoted, as the environment's are. */
function describeGiven(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') return String(value);
  return JSON.stringify(value) ?? String(value);
}

/** A value given in code that breaks its setting's rule: the message names the option's path. */
export function invalidGiven(setting: Setting, value: unknown, expected: string): LoupeError {
  return new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid ${setting.path} ${describeGiven(value)}: expected ${expected}.`);
}

/** A value that breaks its setting's rule, named as it was given: its path in code, else its variable. */
export function invalidSetting(setting: Setting, fromCode: boolean, value: unknown, expected: string): LoupeError {
  return fromCode ? invalidGiven(setting, value, expected) : invalid(setting.variable, String(value), expected);
}

/** An integer from `min` to `max`: given in code, else from the environment, else `fallback`. */
export function pickInteger(given: unknown, setting: Setting, env: Env, fallback: number, min: number, max: number): number {
  if (given === undefined) return integer(env, setting.variable, fallback, min, max);
  if (typeof given !== 'number' || !Number.isInteger(given) || given < min || given > max) throw invalidGiven(setting, given, `an integer from ${min} to ${max}`);
  return given;
}

/** A number from 0 to 1: given in code, else from the environment, else `fallback`. */
export function pickFraction(given: unknown, setting: Setting, env: Env, fallback: number): number {
  if (given === undefined) return fraction(env, setting.variable, fallback);
  if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > 1) throw invalidGiven(setting, given, 'a number from 0 to 1');
  return given;
}

/** A boolean: given in code, else from the environment (`1`/`0`…), else `fallback`. */
export function pickFlag(given: unknown, setting: Setting, env: Env, fallback: boolean): boolean {
  if (given === undefined) return flag(env, setting.variable, fallback);
  if (typeof given !== 'boolean') throw invalidGiven(setting, given, 'true or false');
  return given;
}

/** A string: given in code, else the variable when set (empty included), else `fallback`. */
export function pickString(given: unknown, setting: Setting, env: Env, fallback: string): string {
  if (given === undefined) return env[setting.variable] ?? fallback;
  if (typeof given !== 'string') throw invalidGiven(setting, given, 'a string');
  return given;
}

/** A list of non-empty strings: given in code, else the comma-separated variable, else `fallback`. */
export function pickList(given: unknown, setting: Setting, env: Env, fallback: readonly string[]): readonly string[] {
  if (given === undefined) return list(env, setting.variable, fallback);
  if (!Array.isArray(given) || !given.every((item) => typeof item === 'string' && item.trim() !== '')) throw invalidGiven(setting, given, 'an array of non-empty strings');
  return given.map((item: string) => item.trim());
}

/** One of `choices`: given in code, else from the environment (unset or empty: `fallback`). */
export function pickOneOf<T extends string>(given: unknown, setting: Setting, env: Env, choices: readonly T[], fallback: T): T {
  const fromCode = given !== undefined;
  const raw = fromCode ? given : env[setting.variable];
  if (raw === undefined || (!fromCode && raw === '')) return fallback;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined) throw invalidSetting(setting, fromCode, raw, `one of ${choices.join(', ')}`);
  return choice;
}
