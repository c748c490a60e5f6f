import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';
import { escapeControl } from '../../../../log/escape-control';
import { hideRedisPassword } from '../../../../redis/hide-redis-password';
import { PROFILER_PREFIX } from '../../../profiler-paths';
import { readProfilerConfig } from '../../../read-profiler-config';
import { connectionConfig } from '../with-profile-storage';

/** Beside the kernel's 8000, so that an application and its pages can run side by side on their defaults. */
export const DEFAULT_SERVE_PORT = 8010;
const DEFAULT_SERVE_HOST = '127.0.0.1';

const HELP = `Usage: loupe profiler:serve [--port N] [--host HOST]

Serves the profiler's pages on a server of their own: the profiles, search, status, compare and
the live feed under ${PROFILER_PREFIX} (each answering JSON to Accept: application/json) and the
toolbar's content under /_wdt, read from the profiles every server sharing the Redis and the key
prefix stores. For an application that cannot mount the pages, or several services sharing one
Redis. It only reads: nothing of its own is profiled or written. / redirects to ${PROFILER_PREFIX};
any other path is a 404. Prints one line with the URL, then serves until interrupted (Ctrl-C or
SIGTERM; exit code 0). Exit code 1 when Redis does not answer or the port is taken.

The pages follow the same rules as those an application mounts: readable from the client
addresses of PROFILER_ALLOWED_IPS (default: loopback only), for a Host that is an IP address,
localhost or a host of PROFILER_ALLOWED_HOSTS (against DNS rebinding), a 403 otherwise;
PROFILER_IDE and PROFILER_SOURCE_ROOT link and show source files as there.

  --port N           the port to listen on, 0 to 65535 (default ${DEFAULT_SERVE_PORT}; 0 picks a free one)
  --host HOST        the address to listen on (default ${DEFAULT_SERVE_HOST}); another machine also needs
                     its address in PROFILER_ALLOWED_IPS
${CONNECTION_HELP}
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
} as const;

function portOption(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SERVE_PORT;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) throw CliError.usage(`--port expects a port from 0 to 65535, got "${raw}".`);
  return port;
}

function hostOption(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_SERVE_HOST;
  if (raw.trim() === '') throw CliError.usage('--host expects an address to listen on, e.g. 127.0.0.1.');
  return raw.trim();
}

/** `loupe profiler:serve`: the profiler's pages on their own port, from the profiles in Redis. */
export const profilerServeCommand: CliCommand = {
  name: 'profiler:serve',
  summary: "serve the profiler's pages on their own port, from the profiles in Redis",
  help: HELP,
  options: OPTIONS,
  async run(args, io, context) {
    if (args.positionals.length > 0) throw CliError.usage(`profiler:serve takes no arguments, got "${args.positionals.join(' ')}".`);
    const port = portOption(args.string('port'));
    const host = hostOption(args.string('host'));
    const untilInterrupted = io.untilInterrupted;
    if (untilInterrupted === undefined) throw new CliError(1, 'profiler:serve runs until interrupted, and this terminal cannot interrupt it.');
    const config = { redis: connectionConfig(io.env, args.connection), profiler: readProfilerConfig(io.env) };
    const interrupted = untilInterrupted();
    // Loaded only when serving: the other commands and `loupe help` load no server.
    const { serveProfilerPages } = require('../../../serve/serve-profiler-pages') as typeof import('../../../serve/serve-profiler-pages');
    const served = await serveProfilerPages({ config, port, host, panels: context.panels, log: (line) => io.err(`${line}\n`) });
    try {
      io.out(`Loupe profiler pages on ${served.origin}${PROFILER_PREFIX} (Redis ${hideRedisPassword(config.redis.url)}, prefix "${escapeControl(config.redis.prefix)}")\n`);
      await interrupted;
      return 0;
    } finally {
      await served.close();
    }
  },
};
