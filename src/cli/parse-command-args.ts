import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';

/** Flag definitions as node:util parseArgs takes them. */
export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** Flags every command takes: where Redis is, which key prefix, and help. */
export const GLOBAL_OPTIONS = {
  'redis-url': { type: 'string' },
  prefix: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpecs;

/** Where to read profiles, when the flags override the environment. */
export interface ConnectionFlags {
  /** `--redis-url`; absent when not given (REDIS_URL applies then). */
  readonly redisUrl?: string;
  /** `--prefix`, the Redis key prefix; absent when not given (REDIS_PREFIX applies then). */
  readonly prefix?: string;
}

/** A command's parsed arguments, read through typed accessors. */
export interface CommandArgs {
  /** The words that are not flags, in order, e.g. a profile's token. */
  readonly positionals: readonly string[];
  /** The global `--redis-url` and `--prefix` flags, where given. */
  readonly connection: ConnectionFlags;
  /** Whether `--help` or `-h` was given. */
  readonly help: boolean;
  /** The value of the string flag `--<name>`, or `undefined` when it was not given. */
  string(name: string): string | undefined;
  /** Whether the boolean flag `--<name>` was given. */
  flag(name: string): boolean;
}

/**
 * Parses a command's arguments (after the command name) strictly with node:util parseArgs, plus
 * the global flags. Unknown flags and missing values are usage errors (exit code 2).
 */
export function parseCommandArgs(args: readonly string[], options: OptionSpecs): CommandArgs {
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: { ...options, ...GLOBAL_OPTIONS }, allowPositionals: true, strict: true });
  } catch (error) {
    throw CliError.usage(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const string = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const redisUrl = string('redis-url');
  const prefix = string('prefix');
  return {
    positionals,
    connection: { ...(redisUrl === undefined ? {} : { redisUrl }), ...(prefix === undefined ? {} : { prefix }) },
    help: values['help'] === true,
    string,
    flag: (name) => values[name] === true,
  };
}

/**
 * Splits `argv` into the command name and the rest. Global flags may come before the command
 * (`loupe --prefix app: profiler:list`), so the command is the first word that is not a flag or
 * the value of one.
 */
export function splitCommand(argv: readonly string[]): { command: string | undefined; rest: string[] } {
  const takesValue = new Set(['--redis-url', '--prefix']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (takesValue.has(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith('-')) return { command: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { command: undefined, rest: [...argv] };
}
