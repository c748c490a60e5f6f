import http from 'node:http';
import { type AddressInfo } from 'node:net';
import test from 'ava';
import { WebSocket } from 'ws';
import { type WebSocketClient, type WebSocketRoute } from '../../../src/server/web-socket-route';
import { attachWebSocketRoute, type AttachedWebSocketRoute } from '../../../src/profiler/serve/attach-web-socket-route';
import { isOpen, openWebSocket, type RefusedUpgrade, type TestWebSocket } from '../../helpers/websocket-client';

/*
 * A WebSocket route on node:http, as `loupe profiler:serve` serves the live feed: over real HTTP,
 * with ws's own client, against routes made for each test.
 */

interface Served {
  readonly port: number;
  readonly attached: AttachedWebSocketRoute;
  /** The errors given to `onError`. */
  readonly errors: unknown[];
}

/** `route` on a node:http server of its own, listening on a free port; closed after the test. */
async function serve(t: { teardown(close: () => Promise<void>): void }, route: WebSocketRoute): Promise<Served> {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const errors: unknown[] = [];
  const attached = attachWebSocketRoute(server, route, (error) => errors.push(error));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    attached.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, attached, errors };
}

/** An open ws client of `path`, closed after the test. */
async function connect(t: { teardown(close: () => void): void }, port: number, path = '/live'): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  t.teardown(() => socket.terminate());
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/** The refusal of an upgrade, which must have been refused. */
function refusal(result: TestWebSocket | RefusedUpgrade): RefusedUpgrade {
  if (isOpen(result)) {
    result.close();
    throw new Error('The upgrade was accepted.');
  }
  return result;
}

/** Resolves with the close code the server sent. */
function closeCode(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

test('a text message of at most maxPayloadLength bytes reaches the route; a longer one closes the connection with 1009', async (t) => {
  const received: string[] = [];
  let wake: () => void = () => undefined;
  const { port } = await serve(t, {
    path: '/live',
    maxPayloadLength: 16,
    message: (_client, message) => {
      received.push(message);
      wake();
    },
  });
  const socket = await connect(t, port);
  const arrived = new Promise<void>((resolve) => (wake = resolve));
  socket.send('é'.repeat(8));
  await arrived;
  t.deepEqual(received, ['é'.repeat(8)]);
  const closed = closeCode(socket);
  socket.send('x'.repeat(17));
  t.is(await closed, 1009);
  t.deepEqual(received, ['é'.repeat(8)]);
});

test('a ping is answered with a pong of the same data', async (t) => {
  const { port } = await serve(t, { path: '/live' });
  const socket = await connect(t, port);
  const pong = new Promise<string>((resolve) => socket.once('pong', (data) => resolve(data.toString())));
  socket.ping('are you there');
  t.is(await pong, 'are you there');
});

test('a message published reaches the clients; one that reads too slowly is skipped past 256 KiB waiting, until it caught up', async (t) => {
  let publish: (message: string) => void = () => undefined;
  let client: WebSocketClient | undefined;
  const { port } = await serve(t, {
    path: '/live',
    start: (send) => (publish = send),
    open: (opened) => (client = opened),
  });
  const socket = await connect(t, port);
  const received: string[] = [];
  let wake: () => void = () => undefined;
  socket.on('message', (data) => {
    received.push(String(data));
    wake();
  });
  const next = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  publish('first');
  await next();
  t.deepEqual(received, ['first']);

  socket.pause();
  // 64 MB: more than the loopback's socket buffers hold, so that most of it waits on the server.
  const published = 1_000;
  const chunk = 'x'.repeat(64 * 1024);
  for (let index = 0; index < published; index++) publish(`${index} ${chunk}`);
  if (client === undefined) return t.fail('The route was not told of the client.');
  t.false(client.send('skipped'), 'a client with more than 256 KiB waiting is skipped');

  socket.resume();
  while (!client.send('caught up')) await next();
  while (received.at(-1) !== 'caught up') await next();
  const indexes = received.slice(1, -1).map((message) => Number(message.split(' ')[0]));
  t.true(indexes.length > 0 && indexes.length < published, `${indexes.length} of ${published} messages arrived`);
  t.deepEqual(indexes, [...indexes].sort((a, b) => a - b), 'in the order published');
  t.false(received.includes('skipped'));
});

test('closing ends every client with 1001, and the route is told', async (t) => {
  let closedClients = 0;
  let allClosed: () => void = () => undefined;
  const told = new Promise<void>((resolve) => (allClosed = resolve));
  const { port, attached } = await serve(t, {
    path: '/live',
    close: () => {
      closedClients += 1;
      if (closedClients === 2) allClosed();
    },
  });
  const sockets = [await connect(t, port), await connect(t, port)];
  const codes = Promise.all(sockets.map(closeCode));
  attached.close();
  t.deepEqual(await codes, [1001, 1001]);
  // And the route is told of each, else this waits until the test times out.
  await told;
});

test('an upgrade is refused: 404 for another path, the route\'s 403 or status (a hybi-08 page\'s origin checked too), 503 when it is not ready, and ws\'s 400 to an unknown version', async (t) => {
  const unavailable = new Error('Redis did not answer.');
  let readyCalls = 0;
  const { port, errors } = await serve(t, {
    path: '/live',
    refuse: ({ origin }) => (origin === 'http://foreign.example' ? 'Not from <foreign> pages.' : origin === 'http://busy.example' ? { status: 503, message: 'Too many.' } : null),
    ready: () => {
      readyCalls += 1;
      return readyCalls === 1 ? Promise.reject(unavailable) : Promise.resolve();
    },
    unavailable: 'The feed is unavailable.',
  });
  const down = await openWebSocket(port, '/live');
  t.like(refusal(down), { status: 503, body: 'The feed is unavailable.' });
  t.deepEqual(errors, [unavailable]);

  const elsewhere = await openWebSocket(port, '/elsewhere?x=1');
  t.like(refusal(elsewhere), { status: 404, body: 'No WebSocket at /elsewhere.' });
  const foreign = await openWebSocket(port, '/live', { Origin: 'http://foreign.example' });
  t.like(refusal(foreign), { status: 403, body: 'Not from <foreign> pages.' });
  const foreignHybi08 = await openWebSocket(port, '/live', { 'Sec-WebSocket-Version': '8', 'Sec-WebSocket-Origin': 'http://foreign.example' });
  t.like(refusal(foreignHybi08), { status: 403, body: 'Not from <foreign> pages.' });
  const busy = await openWebSocket(port, '/live', { Origin: 'http://busy.example' });
  t.like(refusal(busy), { status: 503, body: 'Too many.' });
  t.is(readyCalls, 1, 'a refused client waits for nothing');

  const oldVersion = await openWebSocket(port, '/live', { 'Sec-WebSocket-Version': '12' });
  t.like(refusal(oldVersion), { status: 400 });
  const accepted = await openWebSocket(port, '/live');
  t.true(isOpen(accepted));
  if (isOpen(accepted)) accepted.close();
});
