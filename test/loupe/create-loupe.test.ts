import test from 'ava';
import {
  attributeKey,
  createLoupe,
  createLogger,
  CredentialsVerifier,
  defineListener,
  hashPassword,
  KernelEvents,
  LoupeResponse,
  type Loupe,
  type SecurityUser,
  type UserProvider,
} from '../../src';
import { httpRequest } from '../helpers/http-client';
import { deleteKeys, redisConfigOf, testConfig } from '../helpers/test-server';

const STARTED_AT = attributeKey<number>('app.started_at');
const apps: { app: Loupe; prefix: string }[] = [];

function app(options: Omit<Parameters<typeof createLoupe>[0], 'config'>, env: Readonly<Record<string, string>> = {}): Loupe {
  const config = testConfig(env);
  const loupe = createLoupe({ ...options, config, logger: createLogger({ level: 'silent', format: 'json' }) });
  apps.push({ app: loupe, prefix: config.redis.prefix });
  return loupe;
}

test.after.always(async () => {
  for (const { app: loupe, prefix } of apps) {
    await loupe.close();
    await deleteKeys(redisConfigOf(loupe.config).url, prefix);
  }
});

/** A user provider that answers asynchronously, as a database would. */
class SlowUserProvider implements UserProvider {
  constructor(private readonly users: readonly SecurityUser[]) {}

  async loadUser(identifier: string): Promise<SecurityUser | null> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return this.users.find((user) => user.identifier === identifier) ?? null;
  }
}

test('inject runs a request through the real kernel: routes, typed attributes shared by listeners and controllers, async listeners', async (t) => {
  const timing = defineListener('TimingListener', {
    'kernel.request': [
      200,
      async ({ attributes }) => {
        await new Promise((resolve) => setImmediate(resolve));
        attributes.set(STARTED_AT, 42);
      },
    ],
    'kernel.response': [0, ({ response, attributes }) => response.headers.set('X-Started-At', String(attributes.get(STARTED_AT)))],
  });
  const loupe = app({
    routes: [{ name: 'greet', path: '/greet/{name}', methods: ['GET'], controller: { name: 'greet', handle: ({ params, attributes }) => ({ hello: params['name'], at: attributes.get(STARTED_AT) }) } }],
    listeners: [timing],
  });
  const res = await loupe.inject({ url: '/greet/ada?x=1', headers: { Accept: 'application/json' } });
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.body), { hello: 'ada', at: 42 });
  t.is(res.headers['x-started-at'], '42');
  t.regex(String(res.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const missing = await loupe.inject({ url: '/nope', headers: { Accept: 'application/json' } });
  t.is(missing.status, 404);
  t.is(JSON.parse(missing.body).detail, 'No route found for "GET http://localhost/nope"');
});

test('a listener that answers at kernel.request skips the controller and the phase\'s later listeners', async (t) => {
  let later = 0;
  let controller = 0;
  const loupe = app({
    routes: [{ name: 'home', path: '/', methods: ['GET'], controller: { name: 'home', handle: () => ((controller += 1), new LoupeResponse('home')) } }],
    listeners: [
      defineListener('Maintenance', { 'kernel.request': [1000, (event) => event.setResponse(new LoupeResponse('Down for maintenance', 503))] }),
      defineListener('Later', { 'kernel.request': [500, () => void (later += 1)] }),
    ],
  });
  const res = await loupe.inject({ url: '/' });
  t.is(res.status, 503);
  t.is(res.body, 'Down for maintenance');
  t.is(later, 0);
  t.is(controller, 0);
});

test('the listener set can be replaced: a function gets the defaults', async (t) => {
  const loupe = app(
    { routes: [{ name: 'home', path: '/', methods: ['GET'], controller: { name: 'home', handle: () => new LoupeResponse('home') } }], listeners: (defaults) => defaults.filter((l) => l.name !== 'DisallowRobotsIndexingListener') },
  );
  const res = await loupe.inject({ url: '/' });
  t.is(res.status, 200);
  t.is(res.headers['x-robots-tag'], undefined);
  const names = (await loupe.listenerTable()).find((row) => row.phase === KernelEvents.RESPONSE)?.listeners.map((l) => l.name) ?? [];
  t.false(names.includes('DisallowRobotsIndexingListener'));
  t.true(names.includes('ResponseListener'));
});

test('an asynchronous user provider works with HTTP Basic; the phase waits for it', async (t) => {
  const users = new SlowUserProvider([{ identifier: 'bob', passwordHash: await hashPassword('builder'), roles: ['ROLE_USER'] }]);
  const loupe = app({
    routes: [{ name: 'me', path: '/me', methods: ['GET'], controller: { name: 'me', handle: ({ user }) => ({ me: user?.identifier ?? null }) } }],
    security: { users, verifier: new CredentialsVerifier(users), firewalls: [{ name: 'main', pattern: /^\//, security: true, httpBasicRealm: 'App', accessControl: [{ path: /^\/me/, roles: ['ROLE_USER'] }] }] },
  });
  const auth = (password: string): Record<string, string> => ({ Accept: 'application/json', Authorization: `Basic ${Buffer.from(`bob:${password}`).toString('base64')}` });
  t.deepEqual(JSON.parse((await loupe.inject({ url: '/me', headers: auth('builder') })).body), { me: 'bob' });
  t.is((await loupe.inject({ url: '/me', headers: auth('wrong') })).status, 401);
  t.is((await loupe.inject({ url: '/me', headers: { Accept: 'application/json' } })).status, 401);
});

test('listen serves the same application over HTTP; close stops it', async (t) => {
  const loupe = app({ routes: [{ name: 'home', path: '/', methods: ['GET'], controller: { name: 'home', handle: () => new LoupeResponse('over uWS') } }] });
  const { url, port } = await loupe.listen();
  t.is(url, `http://127.0.0.1:${port}`);
  const res = await httpRequest(port, { path: '/' });
  t.is(res.status, 200);
  t.is(res.body, 'over uWS');
});
