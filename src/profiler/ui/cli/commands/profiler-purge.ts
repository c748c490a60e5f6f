import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { withProfileStorage } from '../with-profile-storage';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';

const HELP = `Usage: loupe profiler:purge [--force]

Deletes every stored profile under the key prefix and prints how many there were. Asks first
when run on a terminal; elsewhere (CI, scripts) it runs only with --force.

  --force            delete without asking
${CONNECTION_HELP}
`;

const OPTIONS = { force: { type: 'boolean' } } as const;

/** `loupe profiler:purge`: empties the profiler's storage under one prefix. */
export const profilerPurgeCommand: CliCommand = {
  name: 'profiler:purge',
  summary: 'delete every stored profile (asks first; --force in scripts)',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    if (args.positionals.length > 0) throw CliError.usage(`profiler:purge takes no arguments, got "${args.positionals.join(' ')}".`);
    const force = args.flag('force');
    // Checked before connecting: with nobody to ask, deleting needs an explicit --force.
    if (!force && !io.interactive) {
      throw CliError.usage('profiler:purge deletes every profile; standard input is not a terminal, so nobody can confirm: add --force.');
    }
    return withProfileStorage(io.env, args.connection, async ({ storage, prefix, redisUrl }) => {
      if (!force) {
        const count = await storage.count();
        const yes = await io.confirm(`Delete all ${count} profile${count === 1 ? '' : 's'} under the prefix "${prefix}" at ${redisUrl}? [y/N] `);
        if (!yes) {
          io.err('Purge cancelled; nothing was deleted.\n');
          return 1;
        }
      }
      const purged = await storage.purge();
      io.out(`Purged ${purged} profile${purged === 1 ? '' : 's'} under the prefix "${prefix}".\n`);
      return 0;
    });
  },
};
