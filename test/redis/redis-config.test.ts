import test, { type ExecutionContext } from 'ava';
import { LoupeError } from '../../src/errors/loupe-error';
import { describeRedisUrl } from '../../src/redis/redis-client';
import { readRedisConfig } from '../../src/redis/redis-config';

function throwsInvalid(t: ExecutionContext, env: Readonly<Record<string, string>>, message: string): void {
  const error = t.throws(() => readRedisConfig(env), { instanceOf: LoupeError, message });
  t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
}

test('REDIS_CLUSTER_NODES names a cluster by its seed nodes; its URL form is what the clients connect to, with 16 profile groups', (t) => {
  const config = readRedisConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002' });
  t.is(config.url, 'redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002');
  t.deepEqual(config.cluster, {
    nodes: [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ],
    username: null,
    password: null,
    tls: false,
  });
  t.is(config.profileGroups, 16);
  t.true(Object.isFrozen(config.cluster));
  t.true(Object.isFrozen(config.cluster?.nodes));
  t.true(Object.isFrozen(config.cluster?.nodes[0]));
});

test('REDIS_URL=redis+cluster:// names a cluster too, with credentials and TLS (rediss+cluster://)', (t) => {
  const config = readRedisConfig({ REDIS_URL: 'rediss+cluster://loupe:p%40ss:w0rd@cache-1.internal:6380,cache-2.internal:6380/' });
  t.deepEqual(config.cluster, {
    nodes: [
      { host: 'cache-1.internal', port: 6380 },
      { host: 'cache-2.internal', port: 6380 },
    ],
    username: 'loupe',
    password: 'p@ss:w0rd',
    tls: true,
  });
  t.is(readRedisConfig({ REDIS_URL: 'redis+cluster://:secret@127.0.0.1:7000/0' }).cluster?.password, 'secret');
  t.is(readRedisConfig({ REDIS_URL: 'redis+cluster://127.0.0.1:7000' }).cluster?.username, null);
  t.is(describeRedisUrl('redis+cluster://loupe:secret@127.0.0.1:7000,127.0.0.1:7001'), 'the Redis Cluster at 127.0.0.1:7000,127.0.0.1:7001');
  t.is(describeRedisUrl('redis://127.0.0.1:6379'), 'Redis at redis://127.0.0.1:6379');
});

test('a single Redis keeps one profile group (the key names without tags) unless PROFILER_REDIS_GROUPS says otherwise', (t) => {
  t.like(readRedisConfig({}), { cluster: null, profileGroups: 1 });
  t.is(readRedisConfig({ PROFILER_REDIS_GROUPS: '4' }).profileGroups, 4);
  t.is(readRedisConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', PROFILER_REDIS_GROUPS: '3' }).profileGroups, 3);
  throwsInvalid(t, { PROFILER_REDIS_GROUPS: '0' }, 'Invalid PROFILER_REDIS_GROUPS "0": expected an integer from 1 to 1024.');
  throwsInvalid(t, { REDIS_CLUSTER_NODES: '127.0.0.1:7000', PROFILER_REDIS_GROUPS: '2000' }, 'Invalid PROFILER_REDIS_GROUPS "2000": expected an integer from 1 to 1024.');
});

test('cluster nodes that are not host:port are refused, naming the one that is not', (t) => {
  const expected = (part: string): string => `host:port of each cluster node, comma-separated ("${part}" is not)`;
  throwsInvalid(t, { REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1' }, `Invalid REDIS_CLUSTER_NODES "127.0.0.1:7000,127.0.0.1": expected ${expected('127.0.0.1')}.`);
  throwsInvalid(t, { REDIS_CLUSTER_NODES: 'redis://127.0.0.1:7000' }, `Invalid REDIS_CLUSTER_NODES "redis://127.0.0.1:7000": expected ${expected('redis://127.0.0.1:7000')}.`);
  throwsInvalid(t, { REDIS_CLUSTER_NODES: 'cache:70000' }, `Invalid REDIS_CLUSTER_NODES "cache:70000": expected ${expected('cache:70000')}.`);
  throwsInvalid(t, { REDIS_CLUSTER_NODES: ',' }, 'Invalid REDIS_CLUSTER_NODES ",": expected host:port of at least one cluster node, comma-separated.');
  throwsInvalid(t, { REDIS_URL: 'redis+cluster://' }, 'Invalid REDIS_URL "redis+cluster://": expected host:port of at least one cluster node, comma-separated.');
  throwsInvalid(t, { REDIS_URL: 'redis+cluster://127.0.0.1:7000/2' }, 'Invalid REDIS_URL "redis+cluster://127.0.0.1:7000/2": expected no database number, path or options: a cluster has database 0 only.');
});

test('a password never appears in a refusal of a cluster URL', (t) => {
  const error = t.throws(() => readRedisConfig({ REDIS_URL: 'redis+cluster://loupe:s3cret@127.0.0.1:7000/2' }), { instanceOf: LoupeError });
  t.is(error?.message, 'Invalid REDIS_URL "redis+cluster://loupe:***@127.0.0.1:7000/2": expected no database number, path or options: a cluster has database 0 only.');
});

test('REDIS_CLUSTER_NODES and REDIS_URL together are refused: which one is meant cannot be told', (t) => {
  throwsInvalid(t, { REDIS_CLUSTER_NODES: '127.0.0.1:7000', REDIS_URL: 'redis://127.0.0.1:6379' }, 'Invalid REDIS_CLUSTER_NODES "127.0.0.1:7000": expected either REDIS_CLUSTER_NODES or REDIS_URL, not both.');
  t.is(readRedisConfig({ REDIS_CLUSTER_NODES: '', REDIS_URL: 'redis://127.0.0.1:6390' }).url, 'redis://127.0.0.1:6390');
});

test('a REDIS_PREFIX with a brace is refused on a cluster, where it would end or replace the hash tags Loupe adds', (t) => {
  const expected = 'no "{" or "}" with a Redis Cluster (Loupe adds its own hash tags after the prefix)';
  throwsInvalid(t, { REDIS_CLUSTER_NODES: '127.0.0.1:7000', REDIS_PREFIX: 'app{1}:' }, `Invalid REDIS_PREFIX "app{1}:": expected ${expected}.`);
  throwsInvalid(t, { REDIS_URL: 'redis+cluster://127.0.0.1:7000', REDIS_PREFIX: 'app}' }, `Invalid REDIS_PREFIX "app}": expected ${expected}.`);
  t.is(readRedisConfig({ REDIS_PREFIX: 'app{1}:' }).prefix, 'app{1}:', 'one Redis has no slots to keep together');
});
