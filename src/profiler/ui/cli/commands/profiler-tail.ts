import { liveChannel, parseLiveMessage } from '../../live/live-summary';
import { ParentFirst } from '../../live/parent-first';
import { matchesLiveFilter, parseStatusFilter, type LiveFilter } from '../../live/live-filter';
import { closeRedis, connectRedis } from '../../../../redis/connect-redis';
import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { connectionConfig } from '../with-profile-storage';
import { escapeControl } from '../../../../log/escape-control';
import { formatLiveLine } from '../format/format-live-line';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';

const HELP = `Usage: loupe profiler:tail [--method M] [--status CODE|Nxx] [--path SUBSTRING] [--min-ms N]

Prints one line per request as its profile is stored, by any server process sharing the Redis
and the key prefix, until interrupted (Ctrl-C; exit code 0): time, method, status, duration,
token and path (query values the profiler redacts stay redacted). Sub-requests and requests
whose client went away say so at the end of the line, and a sub-request's line comes right after
its parent's. Control characters are shown escaped.

  --method M         only this HTTP method (GET, POST, …)
  --status CODE      only this status code (0: the client went away), or a class: 2xx, 4xx, 5xx…
  --path SUBSTRING   only paths containing SUBSTRING
  --min-ms N         only requests that took at least N milliseconds
${CONNECTION_HELP}
`;

const OPTIONS = {
  method: { type: 'string' },
  status: { type: 'string' },
  path: { type: 'string' },
  'min-ms': { type: 'string' },
} as const;

/** The filters of the command line; a value that cannot filter is a usage error. */
function readFilter(get: (name: string) => string | undefined): LiveFilter {
  const method = get('method');
  const path = get('path');
  const statusText = get('status');
  const minText = get('min-ms');
  let status: LiveFilter['status'];
  if (statusText !== undefined) {
    const parsed = parseStatusFilter(statusText);
    if (parsed === null) throw CliError.usage(`--status expects a status code (404) or a class (5xx), got "${statusText}".`);
    status = parsed;
  }
  let minMs: number | undefined;
  if (minText !== undefined) {
    minMs = Number(minText);
    if (minText.trim() === '' || !Number.isFinite(minMs) || minMs < 0) throw CliError.usage(`--min-ms expects a number of milliseconds (0 or more), got "${minText}".`);
  }
  if (method?.trim() === '') throw CliError.usage('--method expects a method, e.g. GET.');
  return {
    ...(method === undefined ? {} : { method: method.trim() }),
    ...(path === undefined ? {} : { path }),
    ...(status === undefined ? {} : { status }),
    ...(minMs === undefined ? {} : { minMs }),
  };
}

/** `loupe profiler:tail`: the live list of the search page, in the terminal. */
export const profilerTailCommand: CliCommand = {
  name: 'profiler:tail',
  summary: 'print requests as they are profiled, by every server sharing the prefix',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    if (args.positionals.length > 0) throw CliError.usage(`profiler:tail takes no arguments, got "${args.positionals.join(' ')}".`);
    const filter = readFilter((name) => args.string(name));
    const untilInterrupted = io.untilInterrupted;
    if (untilInterrupted === undefined) throw new CliError(1, 'profiler:tail runs until interrupted, and this terminal cannot interrupt it.');
    const config = connectionConfig(io.env, args.connection);
    const interrupted = untilInterrupted();
    const redis = await connectRedis(config.url, 'loupe-cli-tail', config);
    // Set once the user stopped the command: the connection closing then is no loss to report.
    let stopping = false;
    try {
      const channel = liveChannel(config.prefix);
      // Every summary goes through, so that a parent filtered out still releases its sub-request.
      const ordered = new ParentFirst((summary) => {
        if (matchesLiveFilter(summary, filter)) io.out(formatLiveLine(summary));
      });
      redis.on('message', (from: string, message: string) => {
        if (from === channel) ordered.push(parseLiveMessage(message));
      });
      // ioredis reconnects and subscribes again by itself; the user is told in between, but not
      // when the connection closes because the user stopped the command.
      let lost = false;
      redis.on('close', () => {
        if (!lost && !stopping) io.err('Lost the connection to Redis; reconnecting…\n');
        lost = true;
      });
      redis.on('ready', () => {
        if (lost) io.err('Reconnected to Redis.\n');
        lost = false;
      });
      await redis.subscribe(channel);
      // On stderr, so that stdout is the request lines only.
      io.err(`Waiting for profiles under the prefix "${escapeControl(config.prefix)}" (Ctrl-C to stop).\n`);
      await interrupted;
      stopping = true;
      ordered.flush();
      return 0;
    } finally {
      stopping = true;
      await closeRedis(redis);
    }
  },
};
