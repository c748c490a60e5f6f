import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import Redis from 'ioredis';
import Redis6 from 'ioredis6';
import { createClient as createClient6 } from 'redis-client-6';
import { type Profile } from '../../../src';
import { type RedisCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { profiledRequest, startIoApp, type IoApp } from './io-app';
import { at, originOf, route } from './compat-helpers';

/*
 * Compatibility (docs/app-io.md): ioredis 5 and 6, node-redis (`@redis/client`) 5 and 6, each the
 * real client against the real Redis of this machine, from a controller over real HTTP.
 */

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const keyPrefix = `loupe-test-compat:${randomBytes(3).toString('hex')}:`;
const line = at(__filename);
const where = (origin: Parameters<typeof originOf>[0]) => originOf(origin, __filename);
const ioredis = { ioredis5: new Redis(REDIS_URL, { lazyConnect: true }), ioredis6: new Redis6(REDIS_URL, { lazyConnect: true }) as unknown as Redis };
/** node-redis as far as these tests use it: its own types are heavy enough to exhaust the compiler's memory when combined. */
interface NodeRedisClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<unknown>;
  del(keys: string[]): Promise<unknown>;
  sendCommand(args: string[]): Promise<unknown>;
  multi(): NodeRedisMulti;
}
interface NodeRedisMulti {
  incr(key: string): NodeRedisMulti;
  expire(key: string, seconds: number): NodeRedisMulti;
  exec(): Promise<unknown>;
}
const nodeRedis: Readonly<Record<string, NodeRedisClient>> = {
  'node-redis5': createClient({ url: REDIS_URL }) as unknown as NodeRedisClient,
  'node-redis6': createClient6({ url: REDIS_URL }) as unknown as NodeRedisClient,
};
let io: IoApp;

const commandsOf = (profile: Profile) => (profile.collectors['redis'] as unknown as RedisCollectorData).commands;
const key = (name: string) => `${keyPrefix}${name}`;

test.before(async (t) => {
  try {
    await Promise.all([...Object.values(ioredis).map((client) => client.connect()), ...Object.values(nodeRedis).map((client) => client.connect())]);
  } catch (error) {
    t.fail(`No Redis at ${REDIS_URL}: start one with scripts/ensure-redis.sh (${String(error)}).`);
  }
  io = await startIoApp([
    ...Object.entries(ioredis).map(([name, redis]) =>
      route(name, async () => {
        for (const id of [1, 2, 3]) await redis.get(key(`${id}`)); // m:ioredis-loop
        await redis.set(key('value'), 'SECRETVALUE'); // m:ioredis-set
        await redis.multi().incr(key('n')).expire(key('n'), 60).exec(); // m:ioredis-multi
        await redis.pipeline().get(key('value')).get(key('n')).exec(); // m:ioredis-pipeline
        await redis.call('LOUPE.NOSUCH').catch(() => undefined); // m:ioredis-error
        await redis.del(key('value'), key('n')); // m:ioredis-del
      }),
    ),
    ...Object.entries(nodeRedis).map(([name, client]) =>
      route(name, async () => {
        for (const id of [1, 2, 3]) await client.get(key(`${id}`)); // m:node-redis-loop
        await client.set(key('value'), 'SECRETVALUE'); // m:node-redis-set
        await client.multi().incr(key('n')).expire(key('n'), 60).exec(); // m:node-redis-multi
        await client.sendCommand(['LOUPE.NOSUCH']).catch(() => undefined); // m:node-redis-error
        await client.del([key('value'), key('n')]); // m:node-redis-del
      }),
    ),
  ]);
});

test.after.always(async () => {
  await io?.close();
  const keys = ioredis.ioredis5.status === 'ready' ? await ioredis.ioredis5.keys(`${keyPrefix}*`) : [];
  if (keys.length > 0) await ioredis.ioredis5.del(...keys);
  for (const client of Object.values(ioredis)) client.disconnect();
  for (const client of Object.values(nodeRedis)) if (client.isOpen) await client.quit();
});

const shown = (profile: Profile) => commandsOf(profile).map((command) => [command.client, command.command, command.args.join(' '), command.batch ?? null, command.database, where(command.origin)]);

for (const name of Object.keys(ioredis)) {
  test.serial(`${name}: commands with written values hidden, a MULTI as a TRANSACTION entry then its commands, a pipeline as its commands alone, the error, each on its line`, async (t) => {
    const { profile } = await profiledRequest(io, { path: `/${name}/1` });
    t.deepEqual(shown(profile), [
      ...[1, 2, 3].map((id) => ['ioredis', 'GET', key(`${id}`), null, 0, line('m:ioredis-loop')]),
      ['ioredis', 'SET', `${key('value')} ?`, null, 0, line('m:ioredis-set')],
      ['ioredis', 'TRANSACTION', '', 2, 0, line('m:ioredis-multi')],
      ['ioredis', 'MULTI', '', null, 0, line('m:ioredis-multi')],
      ['ioredis', 'INCR', key('n'), null, 0, line('m:ioredis-multi')],
      ['ioredis', 'EXPIRE', `${key('n')} 60`, null, 0, line('m:ioredis-multi')],
      ['ioredis', 'EXEC', '', null, 0, line('m:ioredis-multi')],
      ['ioredis', 'GET', key('value'), null, 0, line('m:ioredis-pipeline')],
      ['ioredis', 'GET', key('n'), null, 0, line('m:ioredis-pipeline')],
      ['ioredis', 'LOUPE.NOSUCH', '', null, 0, line('m:ioredis-error')],
      ['ioredis', 'DEL', `${key('value')} ${key('n')}`, null, 0, line('m:ioredis-del')],
    ]);
    const commands = commandsOf(profile);
    t.regex(commands[11]?.error ?? '', /unknown command/i);
    t.true(commands.every((command, index) => (index === 11) === (command.error !== null) && command.duration !== null));
    t.false(JSON.stringify(profile).includes('SECRETVALUE'));
  });
}

for (const name of Object.keys(nodeRedis)) {
  test.serial(`${name}: commands with written values hidden, a MULTI as one TRANSACTION entry of its size, the error, each on its line`, async (t) => {
    const { profile } = await profiledRequest(io, { path: `/${name}/1` });
    t.deepEqual(shown(profile), [
      ...[1, 2, 3].map((id) => ['node-redis', 'GET', key(`${id}`), null, 0, line('m:node-redis-loop')]),
      ['node-redis', 'SET', `${key('value')} ?`, null, 0, line('m:node-redis-set')],
      ['node-redis', 'TRANSACTION', '', 2, 0, line('m:node-redis-multi')],
      ['node-redis', 'LOUPE.NOSUCH', '', null, 0, line('m:node-redis-error')],
      ['node-redis', 'DEL', `${key('value')} ${key('n')}`, null, 0, line('m:node-redis-del')],
    ]);
    const commands = commandsOf(profile);
    t.regex(commands[5]?.error ?? '', /unknown command/i);
    t.true(commands.every((command, index) => (index === 5) === (command.error !== null) && command.duration !== null));
    t.false(JSON.stringify(profile).includes('SECRETVALUE'));
  });
}
