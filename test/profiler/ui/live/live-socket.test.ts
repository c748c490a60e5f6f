import test from 'ava';
import { httpRequest } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { isOpen, openWebSocket, type TestWebSocket } from '../../../helpers/websocket-client';

type Summary = { token: string; method: string; path: string; status: number; durationMs: number; time: number; sub: boolean; parent: string | null; aborted: boolean };

const summaries = (message: string): Summary[] => JSON.parse(message) as Summary[];

async function connect(server: TestServer, headers: Record<string, string> = {}): Promise<TestWebSocket> {
  const socket = await openWebSocket(server.port, '/_profiler/live', headers);
  if (!isOpen(socket)) throw new Error(`The upgrade was refused: ${socket.status} ${socket.body}`);
  return socket;
}

test('a WebSocket client receives the summary of a request made after it connected, secret query values redacted', async (t) => {
  const server = await startTestServer();
  try {
    const socket = await connect(server);
    const res = await httpRequest(server.port, { path: '/config.yaml?api_key=hunter2&page=2' });
    const token = String(res.headers['x-debug-token']);
    const message = await socket.waitFor((text) => summaries(text).some((summary) => summary.token === token));
    const summary = summaries(message).find((entry) => entry.token === token);
    t.like(summary, { method: 'GET', status: 404, sub: false, parent: null, aborted: false });
    t.regex(summary?.path ?? '', /^\/config\.yaml\?/);
    t.false(summary?.path.includes('hunter2'), summary?.path);
    t.true((summary?.durationMs ?? -1) >= 0);
    // The 404 page is rendered by an error sub-request: announced too, naming its parent.
    const sub = await socket.waitFor((text) => summaries(text).some((entry) => entry.parent === token));
    t.true(summaries(sub).some((entry) => entry.parent === token && entry.sub));
    socket.close();
  } finally {
    await server.close();
  }
});

test('every client connected to any server sharing the prefix gets the summary', async (t) => {
  const first = await startTestServer();
  const second = await startTestServer({ REDIS_PREFIX: first.config.redis.prefix });
  try {
    const [a, b] = await Promise.all([connect(first), connect(second)]);
    const res = await httpRequest(second.port, { path: '/' });
    const token = String(res.headers['x-debug-token']);
    const hasToken = (text: string): boolean => summaries(text).some((summary) => summary.token === token);
    await Promise.all([a.waitFor(hasToken), b.waitFor(hasToken)]);
    t.pass();
    a.close();
    b.close();
  } finally {
    await second.close();
    await first.close();
  }
});

test('a client outside PROFILER_ALLOWED_IPS cannot upgrade; the server keeps serving', async (t) => {
  const server = await startTestServer({ PROFILER_ALLOWED_IPS: '10.0.0.0/8' });
  try {
    const refused = await openWebSocket(server.port, '/_profiler/live');
    t.false(isOpen(refused));
    if (!isOpen(refused)) {
      t.is(refused.status, 403);
      t.regex(refused.body, /outside PROFILER_ALLOWED_IPS/);
    }
    t.is((await httpRequest(server.port, { path: '/' })).status, 200);
  } finally {
    await server.close();
  }
});

test('a page of another origin cannot open the feed (cross-site WebSocket hijacking)', async (t) => {
  const server = await startTestServer();
  try {
    const refused = await openWebSocket(server.port, '/_profiler/live', { Origin: 'http://evil.example' });
    t.false(isOpen(refused));
    if (!isOpen(refused)) t.is(refused.status, 403);
    const same = await openWebSocket(server.port, '/_profiler/live', { Origin: `http://127.0.0.1:${server.port}` });
    t.true(isOpen(same));
    if (isOpen(same)) same.close();
  } finally {
    await server.close();
  }
});

test('a page with an opaque or non-http Origin (a downloaded file, a sandboxed frame) cannot open the feed; a client with no Origin can', async (t) => {
  const server = await startTestServer();
  try {
    for (const origin of ['null', 'file://', 'file:///home/me/Downloads/feed.html', 'chrome-extension://abcdef', 'not an origin']) {
      const refused = await openWebSocket(server.port, '/_profiler/live', { Origin: origin });
      t.false(isOpen(refused), origin);
      if (!isOpen(refused)) {
        t.is(refused.status, 403, origin);
        t.regex(refused.body, /only accepts pages of its own origin/, origin);
      }
    }
    const script = await openWebSocket(server.port, '/_profiler/live');
    t.true(isOpen(script));
    if (isOpen(script)) script.close();
  } finally {
    await server.close();
  }
});

test('without debug there is no live route: the path is a plain 404', async (t) => {
  const server = await startTestServer({ APP_DEBUG: '0' });
  try {
    const refused = await openWebSocket(server.port, '/_profiler/live');
    t.false(isOpen(refused));
    if (!isOpen(refused)) t.is(refused.status, 404);
  } finally {
    await server.close();
  }
});

test('a plain GET of the live path is not upgraded: it reaches the routes, whose _profiler_live sends a browser to the search page and its live list', async (t) => {
  const server = await startTestServer();
  try {
    const res = await httpRequest(server.port, { path: '/_profiler/live' });
    t.is(res.status, 302);
    t.is(res.headers['location'], '/_profiler/empty/search/results?limit=50');
  } finally {
    await server.close();
  }
});

test('close() ends the open WebSockets and the subscription, and stays bounded', async (t) => {
  const server = await startTestServer();
  const socket = await connect(server);
  const started = Date.now();
  await server.close();
  await socket.closed;
  t.true(Date.now() - started < 5_000, `${Date.now() - started} ms`);
});
