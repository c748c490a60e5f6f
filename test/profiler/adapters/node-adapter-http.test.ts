import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import express from 'express';
import { profileServer, type ProfiledServer } from '../../../src/profiler/adapters/node';
import { adapterTestBed, assertLiveFeed, assertOwnQueries, assertPagesServed, assertToolbarPage, HTML_PAGE, storedProfile } from '../../helpers/adapter-test-bed';
import { httpRequest } from '../../helpers/http-client';
import { checkServerTiming } from '../../helpers/server-timing';
import { isOpen, openWebSocket } from '../../helpers/websocket-client';

/*
 * `loupe-kernel/node` on a plain node:http server and on an Express application served by
 * node:http: tokens, the toolbar in HTML pages, captured SQL in each request's own profile, and
 * the profiler's pages served by the same server.
 */

const bed = adapterTestBed(test);
const pool = bed.pool;

/** `server` listening on a free port, profiled under a key prefix of its own. */
async function serve(server: http.Server, env: Readonly<Record<string, string>> = {}, serverTiming = true): Promise<{ port: number; profiled: ProfiledServer }> {
  const profiled = await profileServer(server, { env: { ...bed.redisEnv(), ...env }, log: () => undefined, serverTiming });
  if (profiled === null) throw new Error('The profiler is off.');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bed.onClose(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await profiled.close();
  });
  return { port: (server.address() as AddressInfo).port, profiled };
}

function plainServer(): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    if (url.pathname === '/page') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(HTML_PAGE), ETag: '"v1"' });
      res.end(HTML_PAGE);
    } else if (url.pathname === '/written') {
      // Written in pieces, the headers going with the first one.
      res.setHeader('Content-Type', 'text/html');
      res.write('<html><body><p>one</p>');
      res.write('<p>two</p>');
      res.end('</BODY></html>');
    } else if (url.pathname === '/timed') {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Server-Timing': 'app;dur=1.5' }).end('timed');
    } else if (url.pathname === '/gzip') {
      const body = gzipSync(HTML_PAGE);
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip', 'Content-Length': body.length }).end(body);
    } else if (url.pathname === '/query') {
      const n = Number(url.searchParams.get('n'));
      pool
        .query<{ n: number }>(`SELECT $1::int AS n, pg_sleep(${(n % 3) / 100})`, [n])
        .then(({ rows }) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(rows[0])))
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('nothing here');
    }
  });
}

test('a plain server: every response carries its token and link, and an HTML page the toolbar with a corrected length', async (t) => {
  const { port, profiled } = await serve(plainServer());
  const page = await httpRequest(port, { path: '/page' });
  assertToolbarPage(t, port, page);
  const written = await httpRequest(port, { path: '/written' });
  t.true(written.body.includes('id="loupe-wdt-') && written.body.endsWith('</BODY></html>'), written.body);
  const zipped = await httpRequest(port, { path: '/gzip' });
  t.is(zipped.headers['content-encoding'], 'gzip');
  t.regex(String(zipped.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const missing = await httpRequest(port, { path: '/nope' });
  t.is(missing.status, 404);
  const profile = await storedProfile(profiled.profiler, missing.headers['x-debug-token']);
  t.like(profile, { statusCode: 404, method: 'GET' });
});

test('Server-Timing names the states, the SQL and the total, after the metrics the application gave writeHead; off with serverTiming: false', async (t) => {
  const { port } = await serve(plainServer());
  const res = await httpRequest(port, { path: '/query?n=3' });
  await checkServerTiming(t, port, res.headers['server-timing'], ['request', 'response', 'db', 'total']);
  t.is((await httpRequest(port, { path: '/timed' })).body, 'timed');
  const off = await serve(plainServer(), {}, false);
  const quiet = await httpRequest(off.port, { path: '/query?n=3' });
  t.regex(String(quiet.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.is(quiet.headers['server-timing'], undefined);
});

test('the server answers the profiler\'s pages, its JSON API and the toolbar\'s content, none of them profiled', async (t) => {
  const { port } = await serve(plainServer());
  await assertPagesServed(t, port);
  const home = await httpRequest(port, { path: '/_profiler/' });
  t.is(home.status, 302);
});

test('the server answers the live feed of the search page: each request\'s summary as it is stored', async (t) => {
  const { port } = await serve(plainServer());
  await assertLiveFeed(t, port);
});

test('the application\'s own WebSocket upgrades are left to it: the live feed answers only its path', async (t) => {
  const server = plainServer();
  // The application's own upgrade listener, as socket.io or ws would add (here: a plain refusal of its own).
  server.on('upgrade', (req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
    if (req.url === '/app-socket') socket.end('HTTP/1.1 418 I\'m a teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  const { port } = await serve(server);
  const own = await openWebSocket(port, '/app-socket');
  t.false(isOpen(own));
  if (!isOpen(own)) t.is(own.status, 418, 'answered by the application, not refused by Loupe');
  await assertLiveFeed(t, port);
});

test('20 concurrent requests through a shared pool: each profile holds exactly its own query', async (t) => {
  const { port, profiled } = await serve(plainServer());
  const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => httpRequest(port, { path: `/query?n=${n}` })));
  await assertOwnQueries(t, profiled.profiler, responses);
});

test('the Database panel\'s Explain action is served by the application\'s own server, as a POST under the same access rule', async (t) => {
  const { port, profiled } = await serve(plainServer(), { PROFILER_EXPLAIN_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
  const res = await httpRequest(port, { path: '/query?n=3' });
  const profile = await storedProfile(profiled.profiler, res.headers['x-debug-token']);
  const path = `/_profiler/${profile.token}/explain/1`;
  const explained = await httpRequest(port, { method: 'POST', path, headers: { Accept: 'application/json' } });
  t.is(explained.status, 200, explained.body);
  const body = JSON.parse(explained.body) as { statement: string; tree: { nodes: { label: string }[] } };
  t.regex(body.statement, /^EXPLAIN \(FORMAT JSON\) SELECT \$1::int AS n, pg_sleep/);
  t.is(body.tree.nodes[0]?.label, 'Result');
  t.is((await httpRequest(port, { method: 'POST', path, headers: { Origin: 'http://evil.example' } })).status, 403);
  t.is((await httpRequest(port, { method: 'POST', path, headers: { Host: 'rebound.example' } })).status, 403);
});

test('an Express application on node:http is profiled the same way', async (t) => {
  const app = express();
  app.get('/users/:id', async (req, res) => {
    const { rows } = await pool.query<{ n: number }>('SELECT $1::int AS n', [Number(req.params['id'])]);
    res.type('html').send(`<html><body>user ${rows[0]?.n ?? ''}</body></html>`);
  });
  const { port, profiled } = await serve(http.createServer(app));
  const res = await httpRequest(port, { path: '/users/5' });
  t.is(res.status, 200);
  t.true(res.body.includes('id="loupe-wdt-'));
  t.is(Number(res.headers['content-length']), Buffer.byteLength(res.body));
  const profile = await storedProfile(profiled.profiler, res.headers['x-debug-token']);
  const { queries } = profile.collectors['db'] as { queries: { sql: string; origin: { file: string } | null }[] };
  t.is(queries[0]?.sql, 'SELECT $1::int AS n');
  t.regex(queries[0]?.origin?.file ?? '', /node-adapter-http\.test\.ts$/);
});

test('with NODE_ENV=production the adapter is off and loads nothing', async (t) => {
  t.is(await profileServer(http.createServer(), { env: { NODE_ENV: 'production' } }), null);
  t.is(await profileServer(http.createServer(), { enabled: false }), null);
});
