import test from 'ava';
import { liveChannel, parseLiveMessage, type LiveSummary } from '../../../../src/profiler/ui/live/live-summary';
import { ProfileWriter } from '../../../../src/profiler/write/profile-writer';
import { RedisProfileStorage } from '../../../../src/profiler/storage/redis-profile-storage';
import { summarize } from '../../../../src/profiler/profile';
import { sampleProfile } from '../../../helpers/sample-profile';
import { useTestRedis } from '../../../helpers/test-redis';

const redisForTests = useTestRedis(test, 'loupe-test-live-publisher');

const tokens = (count: number, offset: number): string[] => Array.from({ length: count }, (_, i) => (0xb00000 + offset + i).toString(16));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

test('each stored batch is announced once, as one message of summaries, by the write that stored it', async (t) => {
  const prefix = redisForTests.prefix();
  const redis = await redisForTests.writerClient();
  const subscriber = redisForTests.admin().duplicate();
  const messages: LiveSummary[][] = [];
  subscriber.on('message', (_channel: string, message: string) => messages.push(parseLiveMessage(message)));
  await subscriber.subscribe(liveChannel(prefix));
  try {
    const storage = new RedisProfileStorage({ redis, prefix, lifetime: 600, maxProfiles: 10_000, liveChannel: liveChannel(prefix) });
    const writer = new ProfileWriter({ storage, connection: redis, batchSize: 10 });
    const written = tokens(25, 0);
    for (const token of written) writer.enqueue(sampleProfile({ token, url: `http://127.0.0.1:8000/hello/${token}?password=******`, statusCode: 503, duration: 12.345, time: Date.now() }));
    await writer.whenIdle();
    await until(() => messages.flat().length === 25, 'every summary arrived');
    // One message per batch written, of that batch's profiles.
    t.is(messages.length, writer.stats.batches);
    t.true(messages.every((message) => message.length >= 1 && message.length <= 10));
    const received = messages.flat();
    t.deepEqual(received.map((summary) => summary.token), written);
    t.like(received[0], { path: `/hello/${written[0] ?? ''}?password=******`, ip: '127.0.0.1', status: 503, durationMs: 12.35, sub: false, parent: null, aborted: false });
    // Announced by the write itself: each announced token is stored.
    t.is(await storage.count(), 25);
    await writer.stop();
  } finally {
    await subscriber.quit();
  }
});

test('a storage given no live channel announces nothing (readers and tools), and stores all the same', async (t) => {
  const prefix = redisForTests.prefix();
  const redis = await redisForTests.writerClient();
  const subscriber = redisForTests.admin().duplicate();
  let messages = 0;
  subscriber.on('message', () => void (messages += 1));
  await subscriber.subscribe(liveChannel(prefix));
  try {
    const announcing = new RedisProfileStorage({ redis, prefix, lifetime: 600, maxProfiles: 10_000, liveChannel: liveChannel(prefix) });
    const silent = new RedisProfileStorage({ redis, prefix, lifetime: 600, maxProfiles: 10_000 });
    const writer = new ProfileWriter({ storage: silent, connection: redis });
    for (const token of tokens(5, 100)) writer.enqueue(sampleProfile({ token, time: Date.now() }));
    await writer.whenIdle();
    t.is(writer.stats.stored, 5);
    t.is(await silent.count(), 5);
    // A write that announces, after the silent one on the same connection: its message is the first and only one.
    await announcing.write([{ summary: summarize(sampleProfile({ token: tokens(1, 200)[0] ?? '', time: Date.now() })), json: '{}' }]);
    await until(() => messages > 0, 'the announcing write was heard');
    t.is(messages, 1);
    await writer.stop();
  } finally {
    await subscriber.quit();
  }
});

test('a message that is not a list of summaries gives none; entries that are not summaries are left out', (t) => {
  t.deepEqual(parseLiveMessage('not json'), []);
  t.deepEqual(parseLiveMessage('{"token":"abc123"}'), []);
  const good = { token: 'abc123', method: 'GET', path: '/', ip: '127.0.0.1', url: 'http://localhost/', status: 200, durationMs: 1, time: 1, sub: false, parent: null, aborted: false };
  t.deepEqual(parseLiveMessage(JSON.stringify([good, { ...good, status: '200' }, null, 5])), [good]);
  // A server of an earlier version announces no address and no URL: the path stands for the URL.
  const { ip: _ip, url: _url, ...older } = good;
  t.deepEqual(parseLiveMessage(JSON.stringify([older])), [{ ...older, ip: '', url: '/' }]);
});

test('the writer announces the search rows it stored, read as live summaries; a sub-request row reads as one', (t) => {
  const row = { token: 'abc124', parent: 'abc123', ip: '::1', method: 'GET', url: 'http://localhost:8000/_error/500?x=1', time: 5, statusCode: 500, duration: 3.14159, aborted: false, route: null, queries: 2, queryTime: 1.5, nPlusOne: 1 };
  t.deepEqual(parseLiveMessage(JSON.stringify([row, { ...row, statusCode: '500' }, { ...row, token: 'abc125', parent: null, url: 'http://localhost:8000' }])), [
    { token: 'abc124', method: 'GET', path: '/_error/500?x=1', ip: '::1', url: row.url, status: 500, durationMs: 3.14, time: 5, sub: true, parent: 'abc123', aborted: false, queries: 2, queryTime: 1.5, nPlusOne: 1 },
    { token: 'abc125', method: 'GET', path: '/', ip: '::1', url: 'http://localhost:8000', status: 500, durationMs: 3.14, time: 5, sub: false, parent: null, aborted: false, queries: 2, queryTime: 1.5, nPlusOne: 1 },
  ]);
});
