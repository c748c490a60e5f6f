import test from 'ava';
import {
  createLoupe,
  createLogger,
  currentRequest,
  defineListener,
  html,
  LoupeResponse,
  runCli,
  type CollectedRequest,
  type Loupe,
  type LoupePlugin,
  type PanelDefinition,
  type Profile,
  type ProfileCollector,
  type ToolbarItem,
  type WebSocketClient,
} from '../../src';
import { httpRequest } from '../helpers/http-client';
import { deleteAppKeys, testConfig } from '../helpers/test-server';
import { isOpen, openWebSocket } from '../helpers/websocket-client';
import { runMain } from '../cli/run-loupe';

/*
 * An application's own plugin, written against the public API only, as a library for a client
 * of its own would be: it records the client's calls into the current request, stores them with
 * a collector, shows them in a panel, on the toolbar and in profiler:show, adds a listener, a
 * route, a WebSocket route and a CLI command.
 */

interface CartCall {
  readonly item: string;
  readonly at: number;
}

interface CartData {
  readonly calls: readonly CartCall[];
  readonly dropped: number;
}

/** The library's client: its calls go into the current request, with no argument passed down. */
const cartClient = {
  add(item: string): void {
    currentRequest()?.record('cart', { item, at: Date.now() });
  },
};

const cartCollector: ProfileCollector<CartData> = {
  name: 'cart',
  collect: (request: CollectedRequest) => {
    const { entries, dropped } = request.records<CartCall>('cart');
    return { calls: entries.map(({ item, at }) => ({ item, at })), dropped };
  },
};

const cartPanel: PanelDefinition<CartData> = {
  name: 'cart',
  label: 'Cart',
  collector: 'cart',
  badge: ({ calls }) => (calls.length === 0 ? null : { count: calls.length, isError: false }),
  render: ({ data }) => html`<h2>Cart</h2><ul>${data.calls.map((call) => html`<li class="cart-item">${call.item}</li>`)}</ul>`,
  text: ({ calls }) => calls.map((call) => `added ${call.item}`),
};

const cartItem: ToolbarItem = {
  name: 'cart',
  render: (profile: Profile) => {
    const data = profile.collectors['cart'] as CartData | undefined;
    return data === undefined ? null : html`<span class="lwdt-item lwdt-cart">${data.calls.length} in cart</span>`;
  },
};

const opened: WebSocketClient[] = [];

function cartPlugin(events: string[]): LoupePlugin {
  return {
    name: 'cart',
    collectors: [cartCollector],
    panels: [cartPanel],
    toolbarItems: [cartItem],
    commands: [
      {
        name: 'cart:hello',
        summary: 'says hello from the cart plugin',
        help: 'loupe cart:hello',
        options: {},
        run: async (_args, io) => {
          io.out('hello from the cart\n');
          return 0;
        },
      },
    ],
    start: ({ config }) => {
      events.push(`start ${config.appEnv}`);
      return {
        listeners: [defineListener('CartHeaderListener', { 'kernel.response': [0, ({ response }) => response.headers.set('X-Cart-Plugin', 'on')] })],
        routes: [
          {
            name: 'cart_add',
            path: '/cart/add/{item}',
            methods: ['GET'],
            controller: {
              name: 'cart.add',
              handle: ({ params }) => {
                cartClient.add(params['item'] ?? '');
                cartClient.add(`${params['item'] ?? ''}-again`);
                return LoupeResponse.json({ added: params['item'] });
              },
            },
          },
        ],
        webSockets: [
          {
            path: '/cart/socket',
            open: (client) => opened.push(client),
            message: (client, message) => client.send(`echo ${message}`),
          },
        ],
        close: async () => {
          events.push('close');
        },
      };
    },
  };
}

const apps: Loupe[] = [];

test.after.always(async () => {
  for (const app of apps) {
    await app.close();
    await deleteAppKeys(app.config);
  }
});

test('an application’s plugin adds a listener, a route, a WebSocket route, a collector with its panel and toolbar item, and is closed with the application', async (t) => {
  const events: string[] = [];
  const app = createLoupe({ routes: [], plugins: [cartPlugin(events)], config: testConfig(), logger: createLogger({ level: 'silent', format: 'json' }) });
  apps.push(app);
  const { port } = await app.listen();
  t.deepEqual(events, ['start test']);
  const res = await httpRequest(port, { path: '/cart/add/apple' });
  t.is(res.status, 200);
  t.is(res.headers['x-cart-plugin'], 'on');
  const token = String(res.headers['x-debug-token']);
  await app.profiler?.writer.whenIdle();
  let panel = await httpRequest(port, { path: `/_profiler/${token}?panel=cart` });
  for (let i = 0; i < 50 && panel.status !== 200; i++) panel = await httpRequest(port, { path: `/_profiler/${token}?panel=cart` });
  t.is(panel.status, 200);
  t.regex(panel.body, /<li class="cart-item">apple<\/li>/);
  t.regex(panel.body, /<li class="cart-item">apple-again<\/li>/);
  const toolbar = await httpRequest(port, { path: `/_wdt/${token}` });
  t.regex(toolbar.body, /<span class="lwdt-item lwdt-cart">2 in cart<\/span>/);
  const socket = await openWebSocket(port, '/cart/socket');
  if (!isOpen(socket)) return t.fail(`the WebSocket was refused: ${socket.status} ${socket.body}`);
  socket.send('ping');
  t.is(await socket.waitFor((message) => message.startsWith('echo')), 'echo ping');
  t.is(opened.length, 1);
  socket.close();
  await app.close();
  t.deepEqual(events, ['start test', 'close']);
});

test('an application’s CLI (runCli) has its plugins’ commands, and profiler:show prints its panels’ text', async (t) => {
  const events: string[] = [];
  const config = testConfig();
  const app = createLoupe({ routes: [], plugins: [cartPlugin(events)], config, logger: createLogger({ level: 'silent', format: 'json' }) });
  apps.push(app);
  const { port } = await app.listen();
  const token = String((await httpRequest(port, { path: '/cart/add/pear' })).headers['x-debug-token']);
  await app.profiler?.writer.whenIdle();
  const env = { REDIS_URL: config.redis.url, REDIS_PREFIX: config.redis.prefix };
  const hello = await runMain(['cart:hello'], env, { plugins: [cartPlugin([])] });
  t.is(hello.code, 0);
  t.is(hello.stdout, 'hello from the cart\n');
  const show = await runMain(['profiler:show', token], env, { plugins: [cartPlugin([])] });
  t.is(show.code, 0, show.stderr);
  t.regex(show.stdout, /Cart\n[\s\S]*added pear\n[\s\S]*added pear-again/);
  const plain = await runMain(['profiler:show', token], env);
  t.regex(plain.stdout, /Other collectors \(--json shows them\)\n\s*cart/);
  t.is((await runMain(['cart:hello'], env)).code, 2);
  t.is(typeof runCli, 'function');
});
