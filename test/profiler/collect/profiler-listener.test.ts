import test from 'ava';
import type Redis from 'ioredis';
import { flattenError } from '../../../src/error-handler/flatten-error';
import { NotFoundHttpError } from '../../../src/errors/http-error';
import { type Connection } from '../../../src/http/connection';
import { type RequestData } from '../../../src/http/request-data';
import { LoupeResponse } from '../../../src/http/response';
import { type Controller } from '../../../src/kernel/controller';
import { Kernel, type RunningRequest } from '../../../src/kernel/kernel';
import { defineListener, type Listener } from '../../../src/kernel/listener';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { defaultCollectors } from '../../../src/profiler/collect/collectors/default-collectors';
import { createProfilerListener } from '../../../src/profiler/collect/profiler-listener';
import { ProfilerCore } from '../../../src/profiler/core/profiler-core';
import { type Profile } from '../../../src/profiler/profile';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { ProfileWriter } from '../../../src/profiler/write/profile-writer';
import { RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';
import { RedisProfileStorage } from '../../../src/profiler/storage/redis-profile-storage';
import { TokenAllocator } from '../../../src/profiler/storage/token-allocator';
import { entries } from '../../helpers/profile-entries';
import { requestData } from '../../helpers/request-data';
import { useTestRedis } from '../../helpers/test-redis';

const TOKEN = /^[0-9a-f]{6}$/;
const NOT_PROFILED = 'Redis is unavailable: the profile could not be stored.';

const redis = useTestRedis(test, 'loupe-test-profiler-listener');

const hello: Controller = { name: 'hello.hello', handle: () => new LoupeResponse('Hello') };
const failing: Controller = {
  name: 'fail.fail',
  handle: () => {
    throw new Error('boom', { cause: new TypeError('inner') });
  },
};
const pending: Controller = { name: 'slow.slow', handle: () => new Promise(() => undefined) };

/** Path → [route name, controller]. */
const ROUTES: Readonly<Record<string, readonly [string, Controller]>> = {
  '/hello': ['hello', hello],
  '/fail': ['fail', failing],
  '/slow': ['slow', pending],
  '/_profiler/abc123': ['_profiler', hello],
  '/_profiler/search': ['_profiler_search', hello],
  '/_profiler/broken': ['_profiler', failing],
  '/_wdt/abc123': ['_wdt', hello],
};

const router = defineListener('TableRouter', {
  'kernel.request': [
    32,
    ({ exchange, request, isMainRequest }) => {
      if (!isMainRequest) return;
      const route = ROUTES[request.path];
      if (route === undefined) throw new NotFoundHttpError(`No route found for "GET ${request.path}"`);
      request.attributes.set('_route', route[0]);
      request.attributes.set('_controller', route[1].name);
      exchange.controller = route[1];
    },
  ],
});

const errorController: Controller = {
  name: 'error_controller',
  handle: ({ error }) => {
    const flat = flattenError(error, { trace: false });
    return new LoupeResponse(flat.message, flat.statusCode);
  },
};

interface Setup {
  /** The key prefix of this setup's profiles and token sequence. */
  readonly prefix: string;
  /** The token allocator's client. */
  readonly reader: Redis;
  readonly writer: ProfileWriter;
  readonly writerRedis: Redis;
  /** The profiles, read through the admin client. */
  readonly storage: RedisProfileStorage;
  readonly notProfiled: string[];
  /** Runs one request to the end; answers the written responses (none when aborted). */
  run(data: RequestData, whileRunning?: (running: RunningRequest) => void): Promise<LoupeResponse[]>;
  /** The stored profile under `token`, parsed. */
  read(token: string | undefined): Promise<Profile | null>;
}

interface SetUpOptions {
  readonly startAllocator?: boolean;
  /** Listeners run before the profiler's. */
  readonly extra?: readonly Listener[];
}

async function setUp(options: SetUpOptions = {}): Promise<Setup> {
  const prefix = redis.prefix();
  const writerRedis = await redis.writerClient();
  // The allocator uses the application's client in src/profiler/profiler.ts: one of its own here.
  const reader = await redis.client('loupe-test-profiler-listener-reader');
  const writer = new ProfileWriter({ storage: new RedisProfileStorage({ redis: writerRedis, prefix, lifetime: 600, maxProfiles: 1000 }), connection: writerRedis });
  const allocator = new TokenAllocator({ redis: reader, prefix, blockSize: 16 });
  if (options.startAllocator ?? true) await allocator.start();
  const notProfiled: string[] = [];
  const listener = createProfilerListener(
    new ProfilerCore({
      allocator,
      writer,
      collectors: defaultCollectors({ secretCookies: new Set(['LOUPESESSID']) }),
      redaction: new RedactionPolicy(),
      capture: [],
      recordLimit: 500,
      onNotProfiled: (reason) => notProfiled.push(reason),
    }),
  );
  const crashes: unknown[] = [];
  const kernel = new Kernel({ defaultLocale: 'en', errorController, listeners: new ListenerRegistry([router, ...(options.extra ?? []), listener]), onCrash: (error) => crashes.push(error) });
  const storage = new RedisProfileStorage({ redis: redis.admin(), prefix, lifetime: 600, maxProfiles: 1000 });
  return {
    prefix,
    reader,
    writer,
    writerRedis,
    storage,
    notProfiled,
    run: async (data, whileRunning) => {
      const written: LoupeResponse[] = [];
      const connection: Connection = {
        write: (response) => {
          written.push(response);
          return true;
        },
      };
      const running = kernel.handle(data, connection);
      whileRunning?.(running);
      await kernel.whenIdle();
      await writer.whenIdle();
      if (crashes.length > 0) throw crashes[0];
      return written;
    },
    read: async (token) => {
      if (token === undefined) return null;
      const result = await storage.read(token);
      if (result.kind !== 'found') return null;
      const parsed = parseProfile(result.json);
      if (!parsed.ok) throw new Error(`The profile ${token} does not read back: ${parsed.error}.`);
      return parsed.profile;
    },
  };
}

test('it is the ProfilerListener on kernel.request at 4096, kernel.response at -100 and kernel.terminate at -1024', (t) => {
  const listener = createProfilerListener({ captured: new Set(), issueToken: () => null, finish: () => undefined });
  t.is(listener.name, 'ProfilerListener');
  const registry = new ListenerRegistry([listener]);
  t.deepEqual(registry.for('kernel.request').map((l) => l.priority), [4096]);
  t.deepEqual(registry.for('kernel.response').map((l) => l.priority), [-100]);
  t.deepEqual(registry.for('kernel.terminate').map((l) => l.priority), [-1024]);
  t.deepEqual(Object.keys(listener.subscriptions).sort(), ['kernel.request', 'kernel.response', 'kernel.terminate']);
});

test('a main response gets a six-hex-digit X-Debug-Token, and its profile is stored under it', async (t) => {
  const setup = await setUp();
  const [response, ...more] = await setup.run(requestData({ path: '/hello' }));
  t.is(more.length, 0);
  const token = response?.headers.get('X-Debug-Token');
  t.regex(token ?? '', TOKEN);
  t.false(response?.headers.has('X-Previous-Debug-Token'));
  const profile = await setup.read(token);
  t.like(profile, { token, parent: null, children: [], type: 'main', method: 'GET', statusCode: 200, url: 'http://127.0.0.1:8000/hello' });
  t.is(entries(profile).router.route, 'hello');
  t.true((profile?.profilerCost.collect ?? -1) > 0, 'what profiling cost is recorded');
  t.is(entries(profile).request.response.headers['X-Debug-Token'], token, 'the profile shows the response as sent');
  t.deepEqual(setup.notProfiled, []);
  t.is(setup.writer.stats.stored, 1);
});

test('each request gets a token of its own', async (t) => {
  const setup = await setUp();
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const [response] = await setup.run(requestData({ path: '/hello' }));
    seen.add(response?.headers.get('X-Debug-Token') ?? '');
  }
  t.is(seen.size, 40);
  t.is(await setup.storage.count(), 40);
});

test('an error response: the sub-request token becomes X-Previous-Debug-Token; both profiles are linked', async (t) => {
  const setup = await setUp();
  const [response] = await setup.run(requestData({ method: 'POST', path: '/fail' }));
  t.is(response?.status, 500);
  const mainToken = response?.headers.get('X-Debug-Token');
  const subToken = response?.headers.get('X-Previous-Debug-Token');
  t.regex(mainToken ?? '', TOKEN);
  t.regex(subToken ?? '', TOKEN);
  t.not(mainToken, subToken);

  const main = await setup.read(mainToken);
  const sub = await setup.read(subToken);
  t.like(main, { token: mainToken, parent: null, children: [subToken], type: 'main', method: 'POST', statusCode: 500 });
  t.like(sub, { token: subToken, parent: mainToken, children: [], type: 'sub', method: 'GET', statusCode: 500 });
  // The error the sub-request renders is recorded once, in its parent's profile.
  t.deepEqual(sub?.collectors['exception'], { errors: [{ sameAs: { profile: mainToken, index: 0 } }] });
  t.deepEqual(entries(main).exception.errors.map((error) => [error.message, error.previous.map((entry) => entry.message)]), [['boom', ['inner']]]);
  t.is(setup.writer.stats.stored, 2);
  t.deepEqual(
    (await setup.storage.find({})).map((row) => [row.token, row.parent]).sort(),
    [
      [mainToken, null],
      [subToken, mainToken],
    ].sort(),
  );
});

test('a response that already carries an X-Debug-Token keeps it as X-Previous-Debug-Token', async (t) => {
  const carried = defineListener('Carried', {
    'kernel.response': [0, ({ response }) => void response.headers.set('X-Debug-Token', 'fedcba')],
  });
  const setup = await setUp({ extra: [carried] });
  const [response] = await setup.run(requestData({ path: '/hello' }));
  t.is(response?.headers.get('X-Previous-Debug-Token'), 'fedcba');
  t.regex(response?.headers.get('X-Debug-Token') ?? '', TOKEN);
  t.not(response?.headers.get('X-Debug-Token'), 'fedcba');
});

for (const path of ['/_profiler/abc123', '/_profiler/search', '/_wdt/abc123']) {
  test(`the profiler's own page ${path} is not profiled`, async (t) => {
    const setup = await setUp();
    const [response] = await setup.run(requestData({ path }));
    t.is(response?.status, 200);
    t.false(response?.headers.has('X-Debug-Token'));
    t.is(setup.writer.stats.stored, 0);
    t.is(await setup.storage.count(), 0);
    t.deepEqual(setup.notProfiled, [], 'skipping the profiler is not a failure to profile');
  });
}

test('the error sub-request of a _profiler route is not profiled either: its parent names the route', async (t) => {
  const setup = await setUp();
  const [response] = await setup.run(requestData({ path: '/_profiler/broken' }));
  t.is(response?.status, 500);
  t.false(response?.headers.has('X-Debug-Token'));
  t.false(response?.headers.has('X-Previous-Debug-Token'));
  t.is(await setup.storage.count(), 0);
  // An unrouted path is the application's: its 404 is profiled.
  const [notFound] = await setup.run(requestData({ path: '/_profiler/abc123/extra' }));
  t.is(notFound?.status, 404);
  t.regex(notFound?.headers.get('X-Debug-Token') ?? '', TOKEN);
});

test('when the writer is unavailable no token is sent and onNotProfiled is told, once per response', async (t) => {
  const setup = await setUp();
  setup.writerRedis.disconnect();
  for (let i = 0; i < 100 && setup.writer.isAvailable; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.false(setup.writer.isAvailable);
  const [response] = await setup.run(requestData({ path: '/hello' }));
  t.is(response?.status, 200, 'the request is served all the same');
  t.false(response?.headers.has('X-Debug-Token'));
  t.deepEqual(setup.notProfiled, [NOT_PROFILED]);
  const [error] = await setup.run(requestData({ path: '/fail' }));
  t.false(error?.headers.has('X-Debug-Token'));
  t.false(error?.headers.has('X-Previous-Debug-Token'));
  t.deepEqual(setup.notProfiled, [NOT_PROFILED, NOT_PROFILED, NOT_PROFILED], 'the sub-request and the main request');
  t.is(setup.writer.stats.dropped, 0, 'nothing was collected, so nothing was dropped');
});

test('a request whose kernel.response fails after the profiler’s (a session save while Redis is down) is counted as not profiled once, its error sub-request once', async (t) => {
  const failingSave = defineListener('FailingSessionSaveListener', {
    'kernel.response': [
      -1000,
      (event) => {
        if (event.isMainRequest && event.response.status === 200) throw new Error('The session could not be saved: Redis is unavailable.');
      },
    ],
  });
  const setup = await setUp({ extra: [failingSave] });
  setup.writerRedis.disconnect();
  for (let i = 0; i < 100 && setup.writer.isAvailable; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  const [response] = await setup.run(requestData({ path: '/hello' }));
  t.is(response?.status, 500);
  t.deepEqual(setup.notProfiled, [NOT_PROFILED, NOT_PROFILED], 'the main request and its error sub-request, each once');
});

test('no token before the allocator reserved its first block; one once it has', async (t) => {
  const setup = await setUp({ startAllocator: false });
  const [first] = await setup.run(requestData({ path: '/hello' }));
  t.false(first?.headers.has('X-Debug-Token'));
  t.deepEqual(setup.notProfiled, [NOT_PROFILED]);
  // allocate() asked for a block; let it arrive. The reservation advances the token sequence in
  // Redis; a PING on the allocator's connection then answers after the reservation's reply.
  const sequenceKey = `${setup.prefix}profiler:tokens`;
  for (let i = 0; i < 500 && (await redis.admin().exists(sequenceKey)) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await setup.reader.ping();
  await new Promise((resolve) => setImmediate(resolve));
  const [second] = await setup.run(requestData({ path: '/hello' }));
  t.regex(second?.headers.get('X-Debug-Token') ?? '', TOKEN);
});

test('a request aborted before kernel.response is still profiled at kernel.terminate', async (t) => {
  const setup = await setUp();
  const written = await setup.run(requestData({ path: '/slow' }), (running) => running.abort());
  t.deepEqual(written, []);
  t.is(setup.writer.stats.stored, 1);
  const [row] = await setup.storage.find({});
  t.regex(row?.token ?? '', TOKEN);
  const profile = await setup.read(row?.token);
  t.like(profile, { type: 'main', statusCode: 0, aborted: true, parent: null, children: [] });
  t.deepEqual(setup.notProfiled, []);
});
