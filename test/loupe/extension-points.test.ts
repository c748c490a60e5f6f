import test from 'ava';
import {
  createLoupe,
  createLogger,
  defineListener,
  ProfilerPaths,
  LoupeResponse,
  type Controller,
  type Loupe,
  type LoupeOptions,
  type SessionData,
  type SessionStorage,
} from '../../src';
import { httpRequest } from '../helpers/http-client';
import { PageRouter } from '../helpers/page-router';
import { profileRequests } from '../profiler/ui/cli/profile-requests';
import { connectTestRedis } from '../helpers/test-redis';
import { deleteAppKeys, redisConfigOf, testConfig } from '../helpers/test-server';

const apps: Loupe[] = [];

/** An application listening on a free port, with debug on and a Redis key prefix of its own. */
async function listening(options: Omit<LoupeOptions, 'config' | 'logger'>): Promise<{ app: Loupe; port: number }> {
  const app = createLoupe({ ...options, config: testConfig(), logger: createLogger({ level: 'silent', format: 'json' }) });
  apps.push(app);
  const { port } = await app.listen();
  return { app, port };
}

test.after.always(async () => {
  for (const app of apps) {
    await app.close();
    await deleteAppKeys(app.config);
  }
});

const text = (name: string, body: string): Controller => ({ name, handle: () => new LoupeResponse(body) });

test('an application router answers its routes over HTTP, after the profiler\'s and the application\'s own', async (t) => {
  const router = new PageRouter(new Map([['welcome', 'hello'], ['about', 'never served']]));
  const { port } = await listening({
    routes: [{ name: 'about', path: '/pages/about', methods: ['GET'], controller: text('about.show', 'from routes') }],
    router,
  });
  const page = await httpRequest(port, { path: '/pages/welcome' });
  t.is(page.status, 200);
  t.is(page.body, 'welcome: hello');
  t.regex(String(page.headers['x-debug-token']), /^[0-9a-f]{6}$/, 'the profiler records the request');
  t.is((await httpRequest(port, { path: '/pages/about' })).body, 'from routes', '`routes` is matched before the router');
  const profiler = await httpRequest(port, { path: ProfilerPaths.HOME });
  t.is(profiler.status, 302);
  t.regex(String(profiler.headers['location']), /^\/_profiler\/empty\/search\/results/);
  t.deepEqual(router.asked, ['/pages/welcome'], 'the profiler\'s routes and `routes` answered without asking the router');
  const post = await httpRequest(port, { method: 'POST', path: '/pages/welcome', headers: { Accept: 'application/json' } });
  t.is(post.status, 405);
  t.is(post.headers['allow'], 'GET');
  const missing = await httpRequest(port, { path: '/pages/nope', headers: { Accept: 'application/json' } });
  t.is(missing.status, 404);
});

test("an application router without trace answers a 404 and a 405 with Allow; the Routing panel lists Loupe's routes and says the router gives no trace", async (t) => {
  const router = new PageRouter(new Map([['welcome', 'hello']]));
  const feedback = { name: 'feedback', path: '/pages/welcome', methods: ['POST'], controller: text('feedback.send', 'thanks') };
  const { app, port } = await listening({ routes: [feedback], router });
  const missing = await httpRequest(port, { path: '/pages/nope', headers: { Accept: 'application/json' } });
  t.is(missing.status, 404);
  t.regex(missing.body, /No route found for \\"GET http:\/\/127\.0\.0\.1:\d+\/pages\/nope\\"/);
  t.is((await httpRequest(port, { path: '/pages/welcome' })).body, 'welcome: hello', "a 405 of Loupe's routes lets the application's router answer");
  const wrongMethod = await httpRequest(port, { method: 'DELETE', path: '/pages/welcome', headers: { Accept: 'application/json' } });
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers['allow'], 'POST, GET', "the methods of Loupe's routes, then the application router's");
  t.regex(wrongMethod.body, /Method Not Allowed \(Allow: POST, GET\)/);

  const [notFoundToken = '', notAllowedToken = ''] = await profileRequests({ port, profiler: app.profiler }, [{ path: '/pages/nope' }, { method: 'DELETE', path: '/pages/welcome' }]);
  const panelOf = async (token: string): Promise<string> => (await httpRequest(port, { path: `/_profiler/${token}?panel=router` })).body;
  const notFoundPanel = await panelOf(notFoundToken);
  t.regex(notFoundPanel, /<td class="mono">feedback<\/td><td class="mono">\/pages\/welcome<\/td><td>Path does not match<\/td>/, "Loupe's own routes are listed with their outcome");
  const notAllowedPanel = await panelOf(notAllowedToken);
  t.regex(notAllowedPanel, /<td class="mono">feedback<\/td><td class="mono">\/pages\/welcome<\/td><td>Path almost matches, but <span class="newline">Method &quot;DELETE&quot; does not match any of the required methods \(POST\)<\/span><\/td>/);
  for (const panel of [notFoundPanel, notAllowedPanel]) {
    t.true(panel.includes('<h3>Route matching log</h3>'));
    t.true(panel.includes('<p class="notice untraced">The router <code>PageRouter</code> gives no trace: its routes are not listed.'));
  }
  const json = await httpRequest(port, { path: `/_profiler/${notAllowedToken}`, headers: { Accept: 'application/json' } });
  const { matching } = (JSON.parse(json.body) as { collectors: { router: { matching: { routes: { name: string }[]; untraced?: string[] } } } }).collectors.router;
  t.true(matching.routes.some((route) => route.name === 'feedback'));
  t.deepEqual(matching.untraced, ['PageRouter']);
});

/** Sessions in a map, as a test double or a store of another kind would keep them. */
class MapSessionStorage implements SessionStorage {
  readonly sessions = new Map<string, SessionData>();
  readonly calls: string[] = [];

  async read(id: string): Promise<SessionData | null> {
    this.calls.push('read');
    return this.sessions.get(id) ?? null;
  }

  async write(id: string, data: Readonly<SessionData>): Promise<void> {
    this.calls.push('write');
    this.sessions.set(id, { ...data });
  }

  async touch(): Promise<void> {
    this.calls.push('touch');
  }

  async destroy(id: string): Promise<void> {
    this.calls.push('destroy');
    this.sessions.delete(id);
  }
}

test('a session storage given to createLoupe holds the sessions; Redis holds none', async (t) => {
  const storage = new MapSessionStorage();
  const counter: Controller = {
    name: 'visits.count',
    handle: async ({ session }) => {
      if (session === null) throw new Error('no session');
      await session.start();
      const count = Number(session.get('count') ?? 0) + 1;
      session.set('count', count);
      return new LoupeResponse(String(count));
    },
  };
  const routes = [{ name: 'visits', path: '/visits', methods: ['GET'], controller: counter }];
  const { app, port } = await listening({ routes, sessionStorage: storage });
  const first = await httpRequest(port, { path: '/visits' });
  t.is(first.body, '1');
  const id = /LOUPESESSID=([0-9a-f]{64})/.exec(String(first.headers['set-cookie']))?.[1];
  if (id === undefined) return t.fail('no session cookie');
  t.deepEqual(storage.sessions.get(id), { count: 1 });
  const second = await httpRequest(port, { path: '/visits', headers: { cookie: `LOUPESESSID=${id}` } });
  t.is(second.body, '2');
  t.deepEqual(storage.sessions.get(id), { count: 2 });
  t.true(storage.calls.includes('read'));
  // The same application without the option keeps its sessions in Redis: the look below would see them.
  const { app: inRedis, port: redisPort } = await listening({ routes });
  t.is((await httpRequest(redisPort, { path: '/visits' })).body, '1');
  const client = await connectTestRedis('extension-points');
  try {
    t.deepEqual(await client.keys(`${redisConfigOf(app.config).prefix}session:*`), []);
    t.is((await client.keys(`${redisConfigOf(inRedis.config).prefix}session:*`)).length, 1);
  } finally {
    await client.quit();
  }
});

test('a listener before the router chooses the controller; the request then runs every later phase', async (t) => {
  const seen: string[] = [];
  const legacy: Controller = { name: 'legacy.show', handle: ({ request }) => ({ controller: request.attributes.get('_controller'), path: request.path }) };
  const { port } = await listening({
    routes: [{ name: 'home', path: '/', methods: ['GET'], controller: text('home.index', 'home') }],
    listeners: [
      defineListener('LegacyListener', {
        'kernel.request': [
          64,
          (event) => {
            if (event.request.path.startsWith('/legacy/')) event.setController(legacy);
          },
        ],
      }),
      defineListener('WitnessListener', {
        'kernel.request': [8, (event) => void seen.push(`request ${event.controller?.name ?? 'none'}`)],
        'kernel.controller': [0, (event) => void seen.push(`controller ${event.controller.name}`)],
        'kernel.response': [0, (event) => event.response.headers.set('X-Witness', seen.join(', '))],
      }),
    ],
  });
  const res = await httpRequest(port, { path: '/legacy/page', headers: { Accept: 'application/json' } });
  t.is(res.status, 200, 'no route answers /legacy/page: only the chosen controller does');
  t.deepEqual(JSON.parse(res.body), { controller: 'legacy.show', path: '/legacy/page' }, 'kernel.view turned its data into JSON');
  t.is(res.headers['x-witness'], 'request legacy.show, controller legacy.show', 'the later kernel.request listeners still ran');
  t.regex(String(res.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.is((await httpRequest(port, { path: '/' })).body, 'home', 'other requests are routed');
  t.is((await httpRequest(port, { path: '/other', headers: { Accept: 'application/json' } })).status, 404);
});
