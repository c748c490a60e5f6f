import test from 'ava';
import { tracingChannel } from 'node:diagnostics_channel';
import { LoupeError } from '../../src/errors/loupe-error';
import { connectWriterRedis } from '../../src/profiler/write/connect-writer-redis';
import { connectRedis } from '../../src/redis/connect-redis';

const TIMEOUTS = { commandTimeoutMs: 500, connectTimeoutMs: 1_500 };
const SHARED = new URL(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');

test('no node of a cluster answers: the start fails within the connect timeout, saying where it looked and what to check', async (t) => {
  const started = Date.now();
  const error = await t.throwsAsync(connectRedis('redis+cluster://127.0.0.1:1,127.0.0.1:2', 'loupe-test', TIMEOUTS), { instanceOf: LoupeError });
  t.true(Date.now() - started < TIMEOUTS.connectTimeoutMs + 1_000);
  t.is(error?.code, 'LOUPE_ERR_REDIS_UNAVAILABLE');
  t.regex(error?.message ?? '', /^Cannot reach the Redis Cluster at 127\.0\.0\.1:1,127\.0\.0\.1:2\. Check that REDIS_CLUSTER_NODES \(or REDIS_URL=redis\+cluster:\/\/…\) names nodes of a running cluster/);
  const writer = await t.throwsAsync(connectWriterRedis('redis+cluster://:secret@127.0.0.1:1', 'loupe-test-writer', TIMEOUTS), { instanceOf: LoupeError });
  t.regex(writer?.message ?? '', /^The profile writer cannot reach the Redis Cluster at 127\.0\.0\.1:1\. /);
  t.false(writer?.message.includes('secret'));
});

test('a Redis that is not a cluster, named as one, is refused at start with what it answered', async (t) => {
  const error = await t.throwsAsync(connectRedis(`redis+cluster://${SHARED.host}`, 'loupe-test', TIMEOUTS), { instanceOf: LoupeError });
  t.regex(error?.message ?? '', new RegExp(`^Cannot reach the Redis Cluster at ${SHARED.host.replace(/\./g, '\\.')}\\. `));
  t.regex(error?.message ?? '', /cluster support disabled/);
});

test('the profile writer\'s commands, which carry whole profiles, are not published on ioredis\' tracing channel; other clients\' are', async (t) => {
  const published: string[] = [];
  const handlers = {
    start: (context: { command?: string; args?: readonly string[] }) => void published.push(`${context.command} ${context.args?.join(' ')}`),
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: () => undefined,
    error: () => undefined,
  };
  const channel = tracingChannel<unknown, { command?: string; args?: readonly string[] }>('ioredis:command');
  const writer = await connectWriterRedis(SHARED.href, 'loupe-test-writer', TIMEOUTS);
  const other = await connectRedis(SHARED.href, 'loupe-test', TIMEOUTS);
  channel.subscribe(handlers);
  try {
    await writer.get('loupe-test:from-the-writer');
    await other.get('loupe-test:from-another-client');
  } finally {
    channel.unsubscribe(handlers);
    writer.disconnect();
    other.disconnect();
  }
  t.false(published.some((command) => command.includes('from-the-writer')));
  t.true(published.includes('get loupe-test:from-another-client'));
});
