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

interface BatchContext extends TracingContext {
  readonly batchMode: string;
  readonly batchSize: number;
  readonly database: number;
}

/** What node-redis (`@redis/client` ≥ 5.12) publishes of a command: its arguments start with the command's name. */
interface NodeRedisContext extends CommandContext {
  readonly batchMode?: string;
}

function commandEntry(context: CommandContext, client = 'ioredis', args: readonly unknown[] = context.args) {
  return (start: number, origin: RedisCommandEntry['origin']): RedisCommandEntry => ({
    start,
    duration: null,
    error: null,
    origin,
    client,
    command: context.command.toUpperCase(),
    args: args.map(String),
    database: typeof context.database === 'number' ? context.database : null,
  });
}

function batchEntry(context: BatchContext) {
  return (start: number, origin: RedisCommandEntry['origin']): RedisCommandEntry => ({
    start,
    duration: null,
    error: null,
    origin,
    client: 'ioredis',
    // The transaction as a whole; its MULTI, commands and EXEC follow as entries of their own.
    command: 'TRANSACTION',
    args: [],
    database: context.database,
    batch: context.batchSize,
  });
}

/**
 * Captures the application's Redis commands through the tracing channels of ioredis (≥ 5.11) and
 * node-redis (`@redis/client` ≥ 5.12). Loupe's own
 * clients (sessions, throttling, the profile writer) send theirs outside any request's context
 * (see createRedisClient), so they are never counted as the application's.
 */
export function captureRedis(): () => void {
  const commands = new WeakMap<object, OpenCall<RedisCommandEntry>>();
  const stopCommands = subscribeTracing(tracingChannel<unknown, CommandContext>('ioredis:command'), commands, (context) =>
    openCall('redis', AppIoKinds.REDIS, 'cache', `redis ${context.command.toUpperCase()}`, commandEntry(context)),
  );
  const stopBatches = subscribeTracing(tracingChannel<unknown, BatchContext>('ioredis:batch'), commands, (context) =>
    openCall('redis', AppIoKinds.REDIS, 'cache', `redis TRANSACTION (${context.batchSize})`, batchEntry(context)),
  );
  // node-redis traces a MULTI or a pipeline's commands one by one (with their batchMode), as ioredis does.
  const stopNodeRedis = subscribeTracing(tracingChannel<unknown, NodeRedisContext>('node-redis:command'), commands, (context) =>
    openCall('redis', AppIoKinds.REDIS, 'cache', `redis ${context.command.toUpperCase()}`, commandEntry(context, 'node-redis', context.args.slice(1))),
  );
  return () => {
    stopCommands();
    stopBatches();
    stopNodeRedis();
  };
}

