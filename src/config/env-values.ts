import { LoupeError } from '../errors/loupe-error';

/** The environment as read: names to raw strings. */
export type Env = Readonly<Record<string, string | undefined>>;

export function invalid(name: string, value: string, expected: string): LoupeError {
  return new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid ${name} "${value}": expected ${expected}.`);
}

/** An integer variable within bounds, or `fallback` when unset or empty. */
export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(name, raw, `an integer from ${min} to ${max}`);
  return value;
}

/** A number from 0 to 1 (`0.1`, `1`), or `fallback` when unset or empty. */
export function fraction(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw invalid(name, raw, 'a number from 0 to 1');
  return value;
}

/** A boolean variable (`1/true/on/yes`, `0/false/off/no`), or `fallback`. */
export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  throw invalid(name, raw, '0 or 1');
}

/** A comma-separated list, or `fallback`. */
export function list(env: Env, name: string, fallback: readonly string[]): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** One of `choices`, or `fallback` when unset or empty. */
export function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined) throw invalid(name, raw, `one of ${choices.join(', ')}`);
  return choice;
}
