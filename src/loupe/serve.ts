import cluster from 'node:cluster';
import { resolveConfig, type Config } from '../config/config';
import { type LoupeConfigInput } from '../config/config-input';
import { createLogger } from '../log/create-logger';
import { type Logger } from '../log/logger';
import { splitRequestLineWarning } from '../server/runtime-warning';
import { describeProcessTuning } from '../server/tune-process';
import { Supervisor } from '../server/workers/supervisor';
import { WorkerLink } from '../server/workers/worker-link';
import { type WorkerCounters } from '../server/workers/worker-protocol';
import { type Loupe } from './create-loupe';

/** Makes the application; called once per process (each worker makes its own). */
export type CreateApp = (config: Config, logger: Logger) => Loupe;

/** What `serve` runs the application with, when not read from the environment. */
export interface ServeOptions {
  /** The configuration given in code, over the environment (see LoupeOptions.config); resolved once, handed to each createApp. */
  readonly config?: LoupeConfigInput;
  /** Defaults to createLogger(config.log); a worker adds `worker: <id>` to each line. */
  readonly logger?: Logger;
}

/** Where the server listens. */
export interface Serving {
  /** The base URL, e.g. `http://127.0.0.1:8000` (an IPv6 host in brackets). */
  readonly url: string;
  /** The port bound; the one picked when PORT is 0. */
  readonly port: number;
  /** With debug on, the URL of the profiler's list of requests (`/_profiler/`); else `null`. */
  readonly profilerUrl: string | null;
  /** The number of server processes: 1, or the WORKERS a supervisor runs. */
  readonly workers: number;
}

/**
 * On the first SIGINT or SIGTERM (or a call of the function returned): says what it does,
 * runs `stop` and exits with the code it resolves with (1 when it fails). Later signals are ignored.
 */
function stopOnce(logger: Logger, doing: string, stop: () => Promise<number>): (reason: string) => void {
  let stopping = false;
  const begin = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`${reason} received: ${doing}…`);
    stop().then(
      (code) => process.exit(code),
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed.');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => begin('SIGINT'));
  process.on('SIGTERM', () => begin('SIGTERM'));
  return begin;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Said only when the profiler is not as debug would have it (PROFILER_ENABLED or `profiler` given). */
function profilerState(config: Config): string {
  return config.profiler === config.debug ? '' : `, profiler ${config.profiler ? 'on' : 'off'}`;
}

/**
 * The one line that says where the server is (scripts and tests wait for it): printed whatever
 * LOG_LEVEL hides. It names what listen() changed in the process (`tuning`, see tune-process.ts).
 */
function announce(logger: Logger, config: Config, serving: Serving, tuning: string | null): void {
  const profiler = serving.profilerUrl === null ? '' : ` — profiler: ${serving.profilerUrl}`;
  const workers = serving.workers > 1 ? `, ${serving.workers} workers` : '';
  // Said where it is read first: what a restart loses, and why a second process would not share it.
  const kept = config.profiler ? 'sessions, login throttling and profiles' : 'sessions and login throttling';
  const memory = config.redis === null ? `, no Redis: ${kept} in memory (this process only)` : '';
  const tuned = tuning === null ? '' : `; ${tuning}`;
  logger.child({}, { level: 'info' }).info(`Loupe listening on ${serving.url}${profiler} (APP_ENV=${config.appEnv}, debug ${config.debug ? 'on' : 'off'}${profilerState(config)}${workers}${memory}${tuned})`);
}

function countersOf(app: Loupe): WorkerCounters {
  const stats = app.profiler?.stats() ?? null;
  return {
    requests: app.handledRequests,
    active: app.activeRequests,
    stored: stats?.writer.stored ?? null,
    dropped: stats?.writer.dropped ?? null,
    notProfiled: stats?.notProfiled ?? null,
    queued: stats?.writer.queued ?? null,
    writerState: stats?.writer.state ?? null,
  };
}

/** A worker of the supervisor: serves, tells the supervisor where, reports its counters, and stops with it. */
async function serveAsWorker(link: WorkerLink, createApp: CreateApp, config: Config, logger: Logger): Promise<Serving> {
  const workerLogger = logger.child({ worker: link.id });
  let app: Loupe;
  let serving: Serving;
  try {
    app = createApp(config, workerLogger);
    serving = { ...(await app.listen()), workers: config.server.workers };
  } catch (error) {
    // The supervisor prints the reason once, whichever worker failed.
    await link.startFailed(messageOf(error));
    process.exit(1);
  }
  link.listening(serving.url, serving.profilerUrl, describeProcessTuning());
  link.reportCounters(() => countersOf(app));
  const stop = stopOnce(workerLogger, 'finishing in-flight requests', async () => {
    link.stopReporting();
    await app.close();
    return 0;
  });
  // The supervisor is gone (killed): nobody would stop this worker any more.
  process.on('disconnect', () => stop('Supervisor gone'));
  return serving;
}

/** The supervisor of WORKERS=N processes: starts them, restarts one that dies, stops them all on a signal. */
async function supervise(config: Config, logger: Logger): Promise<{ serving: Serving; tuning: string | null }> {
  const { host, port, workers } = config.server;
  const supervisor = new Supervisor({ workers, host, port, logger });
  const { url, port: bound, profilerUrl, tuning } = await supervisor.start();
  stopOnce(logger, `stopping ${workers} workers`, () => supervisor.stop());
  return { serving: { url, port: bound, profilerUrl, workers }, tuning };
}

/**
 * Runs an application the way `make run` does: listens, prints where, and on SIGINT or SIGTERM
 * stops accepting, finishes in-flight requests, stores queued profiles and exits. With WORKERS=N
 * (N > 1) this process becomes a supervisor of N worker processes on the same port, each calling
 * `createApp` for its own kernel, profiler writer and Redis connections (see README, "Workers").
 * The listening line names what listen() changed in the process (src/server/tune-process.ts).
 * Rejects when the server cannot start (the reason is the message); the caller prints it and exits.
 */
export async function serve(createApp: CreateApp, options: ServeOptions = {}): Promise<Serving> {
  // Several workers without Redis are refused here (resolveConfig), before any worker starts.
  const config = resolveConfig(options.config);
  const logger = options.logger ?? createLogger(config.log);
  const link = WorkerLink.current();
  if (link !== null) return serveAsWorker(link, createApp, config, logger);
  // First, before anything else is printed: production traffic on this runtime fails at random.
  const warning = config.appEnv === 'prod' ? splitRequestLineWarning() : null;
  if (warning !== null) logger.child({}, { level: 'warn' }).warn(warning);
  if (config.server.workers > 1 && cluster.isPrimary) {
    const { serving, tuning } = await supervise(config, logger);
    announce(logger, config, serving, tuning);
    return serving;
  }
  const app = createApp(config, logger);
  const serving = { ...(await app.listen()), workers: 1 };
  announce(logger, config, serving, describeProcessTuning());
  stopOnce(logger, 'finishing in-flight requests', async () => {
    await app.close();
    return 0;
  });
  return serving;
}
