import { type CliCommand } from './command';
import { CONNECTION_HELP } from './commands/connection-help';

/** `loupe help`: the commands, the flags every command takes, and where Redis is read from. */
export function usage(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: loupe <command> [flags]',
    '       loupe --version',
    '',
    'Reads the profiles a Loupe server in debug mode stores in Redis (REDIS_URL, REDIS_PREFIX).',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    `  ${'help'.padEnd(width)}  show this help, or a command's: loupe help <command>`,
    `  ${'--version'.padEnd(width)}  print the version of Loupe`,
    '',
    'Flags of every command:',
    CONNECTION_HELP,
    '',
    'Exit codes: 0 done, 1 failed (e.g. Redis unreachable, unknown token), 2 usage error.',
    '',
  ].join('\n');
}
