import { tracingChannel } from 'node:diagnostics_channel';
import { AppIoKinds, type RedisCommandEntry } from './app-io-entries';
import { openCall, type OpenCall } from './open-call';
import { subscribeTracing, type TracingContext } from './subscribe-tracing';

/** What ioredis (≥ 5.11) publishes of a command: its arguments already sanitized (values of writes are `?`). */
interface CommandContext extends TracingContext {
  readonly command: string;
  readonly args: readonly string[];
  readonly database: number;
}

/** What ioredis (a MULTI) and node-redis (a MULTI or a pipeline) publish of a batch. */
interface BatchContext extends TracingContext {
  readonly batchMode: string;
  readonly batchSize: number;
  readonly database: number;
}

/** What node-redis (`@redis/client` ≥ 5.12) publishes of a command: its arguments start with the command's name. */
interface NodeRedisContext extends CommandContext {
  readonly batchMode?: string;
}

/** Commands whose keys come after a script, sha or function and their count (`EVAL script numkeys key… arg…`). */
const SCRIPT_COMMANDS: ReadonlySet<string> = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);
/** How many leading arguments of these commands are keys or options, the rest being values (`GETSET key value`). */
const LEADING_NAMES: Readonly<Record<string, number>> = { GETSET: 1, PSETEX: 2 };

/**
 * `args` with the values the clients' sanitizers let through shown as `?`. ioredis and node-redis
 * pass every argument of EVAL* (by their `EVAL` prefix rule), GETSET (`GET`) and PSETEX (`P[…]S`):
 * a script's arguments and a written value are the application's data, its keys are not.
 */
export function redisArgs(command: string, args: readonly unknown[]): string[] {
  let kept = LEADING_NAMES[command];
  if (SCRIPT_COMMANDS.has(command)) {
    const keys = Number(args[1]);
    kept = Number.isSafeInteger(keys) && keys >= 0 ? 2 + keys : 2;
  }
  return kept === undefined ? args.map(String) : args.map((arg, index) => (index < kept ? String(arg) : '?'));
}

function commandEntry(context: CommandContext, client = 'ioredis', args: readonly unknown[] = context.args) {
  const command = context.command.toUpperCase();
  return (start: number, origin: RedisCommandEntry['origin']): RedisCommandEntry => ({
    start,
    duration: null,
    error: null,
    origin,
    client,
    command,
    args: redisArgs(command, args),
    database: typeof context.database === 'number' ? context.database : null,
  });
}

/** A batch's entry: `TRANSACTION` for a MULTI, `PIPELINE` for a pipeline, with how many commands it holds. */
function batchName(context: BatchContext): string {
  return context.batchMode === 'PIPELINE' ? 'PIPELINE' : 'TRANSACTION';
}

function batchEntry(context: BatchContext, client: string) {
  return (start: number, origin: RedisCommandEntry['origin']): RedisCommandEntry => ({
    start,
    duration: null,
    error: null,
    origin,
    client,
    // The batch as a whole; the commands a client publishes one by one (ioredis' MULTI, node-redis'
    // pipeline) follow as entries of their own. node-redis publishes a MULTI's commands with no
    // name: the transaction is all that is known of them.
    command: batchName(context),
    args: [],
    database: typeof context.database === 'number' ? context.database : null,
    batch: context.batchSize,
  });
}

/**
 * Captures the application's Redis commands and batches (MULTI, pipelines) through the tracing
 * channels of ioredis (≥ 5.11) and node-redis (`@redis/client` ≥ 5.12). Loupe's own
 * clients (sessions, throttling, the profile writer) send theirs outside any request's context
 * (see createRedisClient), so they are never counted as the application's.
 */
export function captureRedis(): () => void {
  const commands = new WeakMap<object, OpenCall<RedisCommandEntry>>();
  const stopCommands = subscribeTracing(tracingChannel<unknown, CommandContext>('ioredis:command'), commands, (context) =>
    openCall('ioredis', AppIoKinds.REDIS, 'cache', `redis ${context.command.toUpperCase()}`, commandEntry(context)),
  );
  const stopBatches = subscribeTracing(tracingChannel<unknown, BatchContext>('ioredis:batch'), commands, (context) =>
    openCall('ioredis', AppIoKinds.REDIS, 'cache', `redis ${batchName(context)} (${context.batchSize})`, batchEntry(context, 'ioredis')),
  );
  const stopNodeRedisBatches = subscribeTracing(tracingChannel<unknown, BatchContext>('node-redis:batch'), commands, (context) =>
    openCall('node-redis', AppIoKinds.REDIS, 'cache', `redis ${batchName(context)} (${context.batchSize})`, batchEntry(context, 'node-redis')),
  );
  // node-redis traces a MULTI or a pipeline's commands one by one (with their batchMode), as ioredis does.
  const stopNodeRedis = subscribeTracing(tracingChannel<unknown, NodeRedisContext>('node-redis:command'), commands, (context) =>
    openCall('node-redis', AppIoKinds.REDIS, 'cache', `redis ${context.command.toUpperCase()}`, commandEntry(context, 'node-redis', context.args.slice(1))),
  );
  return () => {
    stopCommands();
    stopBatches();
    stopNodeRedisBatches();
    stopNodeRedis();
  };
}

