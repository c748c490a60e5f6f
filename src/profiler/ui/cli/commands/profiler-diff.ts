import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { formatComparison } from '../format/format-comparison';
import { escapeJsonControl } from '../../../../log/escape-control';
import { compareStoredProfiles } from '../compare-stored-profiles';
import { withProfileStorage } from '../with-profile-storage';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';

const HELP = `Usage: loupe profiler:diff A B [--json]
       loupe profiler:diff B [--json]

Compares two profiles, B measured against A, as the page /_profiler/A/compare/B: status, route,
total time, the time of each state of the request machine (the kernel phases among them) and the
listeners whose time changed most, each with the difference in ms and %. A and B are tokens, or
"latest" for the newest main request. Control characters in stored values are shown escaped.

With one token, B is compared with the request before it of the same route (of the same method
and URL when no route matched), as the profile page's "Compare with…" link does:
\`loupe profiler:diff latest\` tells what changed since the previous request to that page.

  --json             print the comparison as JSON
${CONNECTION_HELP}
`;

const OPTIONS = { json: { type: 'boolean' } } as const;

/** `loupe profiler:diff A B`: two profiles' timings side by side. */
export const profilerDiffCommand: CliCommand = {
  name: 'profiler:diff',
  summary: 'compare two profiles\' timings (A B, tokens or "latest"; one token: with the request before it of its route)',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    const [first, second, ...extra] = args.positionals;
    if (first === undefined) throw CliError.usage('profiler:diff needs a token B (compared with the request before it of the same route), or two tokens A and B.');
    if (extra.length > 0) throw CliError.usage(`profiler:diff takes two tokens, got also "${extra.join(' ')}".`);
    const comparison = await withProfileStorage(io.env, args.connection, ({ storage, prefix }) => compareStoredProfiles(storage, prefix, first, second, 'profiler:diff A B'));
    io.out(args.flag('json') ? `${escapeJsonControl(JSON.stringify(comparison, null, 2))}\n` : formatComparison(comparison));
    return 0;
  },
};
