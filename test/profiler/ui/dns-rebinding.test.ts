import test from 'ava';
import { createHostMatcher } from '../../../src/profiler/ui/profiler-hosts';
import { httpRequest, rawRequest } from '../../helpers/http-client';
import { startTestServer } from '../../helpers/test-server';
import { isOpen, openWebSocket } from '../../helpers/websocket-client';

/*
 * DNS rebinding: a page of attacker.example whose name was made to resolve to 127.0.0.1 reaches
 * the profiler from the developer's own browser, with its own name as Host (and as Origin). The
 * profiler answers only for an IP address, localhost, or a name of PROFILER_ALLOWED_HOSTS.
 */

test('IP addresses, localhost and the names of PROFILER_ALLOWED_HOSTS are the profiler’s hosts; any other name is not', (t) => {
  const matches = createHostMatcher(['loupe.test', '.dev.example']);
  for (const host of ['127.0.0.1:8000', '10.1.2.3', '[::1]:8000', '::1', 'localhost:8000', 'app.localhost', 'LOUPE.test:9000', 'a.dev.example', 'dev.example']) t.true(matches(host), host);
  for (const host of ['attacker.example:8000', 'loupe.test.attacker.example', 'evil-dev.example', '', 'localhost.attacker.example']) t.false(matches(host), host);
  // Cut at its colon, each would read as an allowed host.
  for (const host of ['127.0.0.1:8400.evil.test', 'localhost:1.evil.test', '[::1]:80.evil.test', '[::1].evil.test', 'loupe.test:99999']) t.false(matches(host), host);
});

test('a rebound Host gets a 403 from the profiler’s pages, its JSON, the toolbar and the live WebSocket; the application still answers it', async (t) => {
  const server = await startTestServer();
  try {
    const hello = await httpRequest(server.port, { path: '/hello/ada' });
    const token = String(hello.headers['x-debug-token']);
    const rebound = { Host: `attacker.example:${server.port}` };
    const search = await httpRequest(server.port, { path: '/_profiler/search?limit=1', headers: { ...rebound, Accept: 'application/json' } });
    t.is(search.status, 403);
    t.false(search.body.includes(token));
    t.regex(search.body, /PROFILER_ALLOWED_HOSTS/);
    t.is((await httpRequest(server.port, { path: `/_profiler/${token}`, headers: rebound })).status, 403);
    t.is((await httpRequest(server.port, { path: `/_wdt/${token}`, headers: rebound })).status, 403);
    const socket = await openWebSocket(server.port, '/_profiler/live', { ...rebound, Origin: `http://attacker.example:${server.port}` });
    t.false(isOpen(socket));
    if (!isOpen(socket)) t.is(socket.status, 403);
    t.is((await httpRequest(server.port, { path: '/hello/ada', headers: rebound })).status, 200);
    // The same requests by the profiler's own host are answered.
    t.is((await httpRequest(server.port, { path: '/_profiler/search?limit=1', headers: { Accept: 'application/json' } })).status, 200);
    const own = await openWebSocket(server.port, '/_profiler/live', { Origin: `http://127.0.0.1:${server.port}` });
    t.true(isOpen(own));
    if (isOpen(own)) own.close();
  } finally {
    await server.close();
  }
});

test('a name listed in PROFILER_ALLOWED_HOSTS reaches the profiler', async (t) => {
  const server = await startTestServer({ PROFILER_ALLOWED_HOSTS: 'loupe.test' });
  try {
    const res = await httpRequest(server.port, { path: '/_profiler/search?limit=1', headers: { Host: `loupe.test:${server.port}`, Accept: 'application/json' } });
    t.is(res.status, 200);
  } finally {
    await server.close();
  }
});

test('a Host whose port is not a port is a 400 before the profiler answers, and the live WebSocket refuses it', async (t) => {
  const server = await startTestServer();
  try {
    const host = `127.0.0.1:${server.port}.evil.test`;
    for (const path of ['/_profiler/search?limit=1', '/hello/ada']) {
      const raw = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
      t.regex(raw, /^HTTP\/1\.1 400 Bad Request/, path);
      t.true(raw.includes(`"detail":"Invalid Host \\"${host}\\"."`), raw);
    }
    // No Origin: a script's handshake, refused on its Host alone.
    const socket = await openWebSocket(server.port, '/_profiler/live', { Host: host });
    t.false(isOpen(socket));
    if (!isOpen(socket)) t.is(socket.status, 403);
  } finally {
    await server.close();
  }
});
