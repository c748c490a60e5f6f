import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { escapeJsonControl } from '../../../../log/escape-control';
import { SHOWN_CALLS } from '../format/format-app-io';
import { formatProfile } from '../format/format-profile';
import { parseProfile, unreadableProfileMessage } from '../../../profile-schema';
import { type ProfileStorage } from '../../../storage/profile-storage';
import { readStoredJson, withStoredParentErrors } from '../read-stored-profile';
import { withProfileStorage } from '../with-profile-storage';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';

const HELP = `Usage: loupe profiler:show TOKEN [--json]

Shows one profile: summary, phases on a timeline, every span (listeners, controller, session,
sub-request, the application's stopwatch spans) as a waterfall fitted to the terminal's width
(40 columns of bar when the output is no terminal) with the time no span accounts for,
listeners per phase, routing, errors with their chain, logs, the application's SQL queries (the
shapes run in a loop, N+1, first; each query with its time, marks and origin), HTTP calls and
Redis commands (at most ${SHOWN_CALLS} of each), and the request and response headers. TOKEN is
the X-Debug-Token of a response, or "latest" for the newest main request.

  --json             print the stored profile JSON as is (pretty-printed)
${CONNECTION_HELP}
`;

const OPTIONS = { json: { type: 'boolean' } } as const;

/**
 * Pretty-prints the stored JSON, DEL and C1 controls escaped as JSON escapes; a value that is not
 * JSON is printed as stored (its control characters escaped by the CLI's output).
 */
function prettyJson(json: string): string {
  try {
    return escapeJsonControl(JSON.stringify(JSON.parse(json), null, 2));
  } catch {
    return json;
  }
}

/** The profile `json` holds, with the parent's errors it refers to read from `storage`, or why it cannot be read. */
async function readable(storage: Pick<ProfileStorage, 'read'>, json: string): Promise<ReturnType<typeof parseProfile>> {
  const parsed = parseProfile(json);
  return parsed.ok ? { ok: true, profile: await withStoredParentErrors(storage, parsed.profile) } : parsed;
}

/** `loupe profiler:show TOKEN`: one stored profile, readable or as its JSON. */
export const profilerShowCommand: CliCommand = {
  name: 'profiler:show',
  summary: 'show one profile (TOKEN or "latest")',
  help: HELP,
  options: OPTIONS,
  async run(args, io, context) {
    const [requested, ...extra] = args.positionals;
    if (requested === undefined) throw CliError.usage('profiler:show needs a TOKEN (or "latest").');
    if (extra.length > 0) throw CliError.usage(`profiler:show takes one TOKEN, got also "${extra.join(' ')}".`);
    const { token, json, parsed } = await withProfileStorage(io.env, args.connection, async ({ storage, prefix }) => {
      const found = await readStoredJson(storage, prefix, requested);
      // An error sub-request's errors are its parent's: read while the connection is open.
      return { ...found, parsed: args.flag('json') ? null : await readable(storage, found.json) };
    });
    if (parsed === null) {
      io.out(`${prettyJson(json)}\n`);
      return 0;
    }
    // The panel's words for the same profile, then what still works.
    if (!parsed.ok) throw new CliError(1, `${unreadableProfileMessage(token, parsed.error)}\nprofiler:show --json prints it as stored.`);
    io.out(formatProfile(parsed.profile, io.columns, context.panels));
    return 0;
  },
};
