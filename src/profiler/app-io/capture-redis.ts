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

function commandEntry(context: CommandContext) {
  return (start: number, origin: RedisCommandEntry['origin']): RedisCommandEntry => ({
    start,
    duration: null,
    error: null,
    origin,
    client: 'ioredis',
    command: context.command.toUpperCase(),
    args: context.args.map(String),
    database: context.database,
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
 * Captures the application's Redis commands through ioredis's tracing channels. Loupe's own
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
  return () => {
    stopCommands();
    stopBatches();
  };
}

