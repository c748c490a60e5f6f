import test from 'ava';
import { rawExchange, rawRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

// What reaches Loupe at the HTTP edge and what uWS answers itself, over raw TCP against the real
// server. uWS's own answers are byte for byte what it sends: a status line, `Connection: close`
// and a short HTML body delimited by the close, and none of Loupe's headers (no X-Debug-Token:
// the kernel never saw the request, so nothing in Loupe can change them).

const UWS_400 = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n<h1>Bad Request</h1><hr><i>uWebSockets/20 Server</i>';
const UWS_431 =
  'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n<h1>Request Header Fields Too Large</h1><hr><i>uWebSockets/20 Server</i>';
const UWS_505 =
  'HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n' +
  '<h1>HTTP Version Not Supported</h1><p>This server does not support HTTP/1.0.</p><hr><i>uWebSockets/20 Server</i>';

/**
 * uwebsockets@3.0.6's binaries for Node 20 and older come from an older uWS release than those
 * for Node 22 and later (Node 22's ABI is 127); the two differ on duplicate Host lines and on
 * more than 98 header lines.
 */
const OLDER_UWS = Number(process.versions.modules) < 127;

const CLOSE = 'Host: 127.0.0.1\r\nConnection: close\r\n';

/** A GET of `target` with `lines` extra header lines. */
function get(target: string, lines: readonly string[] = []): string {
  return `GET ${target} HTTP/1.1\r\n${CLOSE}${lines.map((line) => `${line}\r\n`).join('')}\r\n`;
}

function statusLine(raw: string): string {
  return raw.slice(0, raw.indexOf('\r\n'));
}

function header(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test.after.always(async () => {
  await server.close();
});

test('HTTP/1.0 is answered 505 by uWS itself, with or without Host', async (t) => {
  t.is(await rawRequest(server.port, 'GET /hello/anna HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n'), UWS_505);
  t.is(await rawRequest(server.port, 'GET /hello/anna HTTP/1.0\r\n\r\n'), UWS_505);
});

test('an unknown method reaches the kernel, whose router answers 405 with Allow, as Symfony does', async (t) => {
  const purge = await rawRequest(server.port, `PURGE /hello/anna HTTP/1.1\r\n${CLOSE}Accept: application/json\r\n\r\n`);
  t.is(statusLine(purge), 'HTTP/1.1 405 Method Not Allowed');
  t.is(header(purge, 'Allow'), 'GET');
  t.regex(header(purge, 'X-Debug-Token') ?? '', /^[0-9a-f]{6}$/, 'the request went through the kernel and was profiled');
  const problem = JSON.parse(purge.slice(purge.indexOf('\r\n\r\n') + 4)) as { status: number; detail: string };
  t.is(problem.status, 405);
  t.is(problem.detail, 'No route found for "PURGE http://127.0.0.1/hello/anna": Method Not Allowed (Allow: GET)');
  const foo = await rawRequest(server.port, `FOO / HTTP/1.1\r\n${CLOSE}\r\n`);
  t.is(statusLine(foo), 'HTTP/1.1 405 Method Not Allowed');
  t.is(header(foo, 'Allow'), 'GET');
});

test('a lower-case method is taken as its upper-case name (Symfony upper-cases it too)', async (t) => {
  const raw = await rawRequest(server.port, `get /hello/anna HTTP/1.1\r\n${CLOSE}Accept: application/json\r\n\r\n`);
  t.is(statusLine(raw), 'HTTP/1.1 200 OK');
  t.regex(raw, /Hello anna!/);
});

test('a request without Host gets uWS\'s own 400 (RFC 9112 §3.2), before Loupe sees it', async (t) => {
  t.is(await rawRequest(server.port, 'GET /hello/anna HTTP/1.1\r\nConnection: close\r\n\r\n'), UWS_400);
});

test('two Host lines are a 400: from the kernel under the older uWS, from uWS itself under the newer', async (t) => {
  const raw = await rawRequest(server.port, 'GET /hello/anna HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n');
  if (!OLDER_UWS) {
    t.is(raw, UWS_400);
    return;
  }
  t.is(statusLine(raw), 'HTTP/1.1 400 Bad Request');
  t.is(decodeURIComponent(header(raw, 'X-Debug-Exception') ?? ''), 'Invalid Host "a.example, b.example".');
});

test('98 header lines are served; from 99 on uWS never calls Loupe: 431 under the newer uWS, silence under the older', async (t) => {
  const extra = (count: number): string[] => Array.from({ length: count }, (_, i) => `X-Extra-${i}: ${i}`);
  // Host and Connection are two of the lines.
  const served = await rawRequest(server.port, get('/hello/anna', extra(96)));
  t.is(statusLine(served), 'HTTP/1.1 200 OK');
  const refused = await rawExchange(server.port, get('/hello/anna', extra(97)), 20_000);
  if (!OLDER_UWS) {
    t.is(refused.text, UWS_431);
    return;
  }
  // The older uWS sends no byte and drops the connection only when its idle timer (about 10 s) fires.
  t.is(refused.text, '');
  t.is(refused.endedBy, 'server');
  t.true(refused.ms > 4_000, `closed after ${refused.ms} ms`);
});

test('an absolute-form target gets uWS\'s 505, though RFC 9112 §3.2.2 has servers accept it', async (t) => {
  t.is(await rawRequest(server.port, get('http://127.0.0.1/hello/anna')), UWS_505);
  t.is(await rawRequest(server.port, get('http://127.0.0.1/hello/anna?x=1')), UWS_505);
});

test('a 120 KB path and a 120 KB header are served; past about 128 KiB of head uWS answers 431 (the older one 505 for a long path)', async (t) => {
  const name = 'a'.repeat(120_000);
  const longPath = await rawRequest(server.port, get(`/hello/${name}`, ['Accept: application/json']));
  t.is(statusLine(longPath), 'HTTP/1.1 200 OK');
  t.true(longPath.includes(`Hello ${name}!`));
  const longHeader = await rawRequest(server.port, get('/hello/anna', [`X-Big: ${'b'.repeat(120_000)}`]));
  t.is(statusLine(longHeader), 'HTTP/1.1 200 OK');
  t.is(await rawRequest(server.port, get('/hello/anna', [`X-Big: ${'b'.repeat(135_000)}`])), UWS_431);
  // The older uWS looks for the HTTP version at the end of a request line it could not read whole.
  t.is(await rawRequest(server.port, get(`/hello/${'a'.repeat(135_000)}`)), OLDER_UWS ? UWS_505 : UWS_431);
});
