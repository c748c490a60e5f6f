import test from 'ava';
import { html, type PanelDefinition, type ProfileCollector } from '../../../../src';
import { profileRequests } from '../cli/profile-requests';
import { runLoupe } from '../../../cli/run-loupe';
import { httpRequest } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

// An application's own collector and panel, registered without touching Loupe's sources.

interface CartData {
  readonly path: string;
  readonly items: number;
}

const cartCollector: ProfileCollector<CartData> = {
  name: 'cart',
  collect: (exchange) => ({ path: exchange.request.path, items: Number(exchange.request.queryParams.get('items') ?? 0) }),
};

const cartPanel: PanelDefinition<CartData> = {
  name: 'cart',
  label: 'Shopping cart',
  collector: 'cart',
  badge: (data) => ({ count: data.items, isError: false }),
  render: ({ data, profile }) => html`<h2>Cart</h2><p class="cart-summary">${data.items} items in the cart at ${data.path} (${profile.method})</p>`,
};

let server: TestServer;

test.before(async () => {
  server = await startTestServer({}, { collectors: [cartCollector], panels: [cartPanel] });
});

test.after.always(async () => {
  await server?.close();
});

test('an application collector is stored under its name, and its panel is served at ?panel=<name>', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/anna?items=3' }]);
  const found = await server.profiler?.storage.read(token);
  if (found?.kind !== 'found') return t.fail(`no profile stored under ${token}`);
  const stored = JSON.parse(found.json) as { collectors: Record<string, unknown> };
  t.deepEqual(stored.collectors['cart'], { path: '/hello/anna', items: 3 });
  t.deepEqual(Object.keys(stored.collectors), ['request', 'exception', 'logs', 'router', 'timeline', 'memory', 'db', 'http_client', 'redis', 'cart'], 'after Loupe\'s own');

  const page = await httpRequest(server.port, { path: `/_profiler/${token}?panel=cart` });
  t.is(page.status, 200);
  t.true(page.body.includes('id="panel-cart"'));
  t.true(page.body.includes('<p class="cart-summary">3 items in the cart at /hello/anna (GET)</p>'));
  t.true(page.body.includes('aria-current="page" data-panel="cart"><span>Shopping cart</span><span class="badge">3</span>'), 'in the menu, with its badge');
  const router = await httpRequest(server.port, { path: `/_profiler/${token}?panel=router` });
  t.true(router.body.includes('Matched route <code class="matched-route">hello</code>'), 'Loupe\'s panels are still there');
  t.true(router.body.includes('data-panel="cart"'));
});

test('profiler:show names the application\'s entry it has no view for', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/bob' }]);
  const run = await runLoupe(['profiler:show', token], { REDIS_PREFIX: server.config.redis.prefix });
  t.is(run.code, 0, run.stderr);
  // The section lists the entries the CLI has no view for, the application's last.
  t.true(run.stdout.includes('Other collectors (--json shows them)\n'), run.stdout);
  t.true(run.stdout.endsWith('\n  cart\n'), run.stdout);
});
