import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { fetch as undiciFetch, request as undiciRequest } from 'undici';
import { type Profile } from '../../../src';
import { analyzeRepeats } from '../../../src/profiler/app-io/analyze-repeats';
import { httpCallShape } from '../../../src/profiler/app-io/http-call-shape';
import { type HttpClientCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { REDACTED } from '../../../src/profiler/collect/redaction-policy';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';
import { at, originOf, route } from './compat-helpers';

/*
 * Compatibility (docs/app-io.md): Node's fetch, axios, got, undici's own `request` and `fetch`,
 * node:http, and node:https to a TLS server with a certificate made for the test, each the real
 * library against a real local server, over real HTTP.
 */

/** got as far as these tests use it: got 14 is an ES module only, loaded with a real `import()`. */
type Got = ((url: string, options?: { retry?: { limit: number } }) => { text(): Promise<string> }) & {
  post(url: string, options: { json: unknown; headers: Record<string, string> }): { text(): Promise<string> };
};
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ default: Got }>;

const line = at(__filename);
const where = (origin: Parameters<typeof originOf>[0]) => originOf(origin, __filename);
const closed = 'http://127.0.0.1:1/closed';
const certificates = mkdtempSync(join(tmpdir(), 'loupe-compat-tls-'));
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let tls: https.Server;
let tlsUrl: string;
let ca: Buffer;
let io: IoApp;

const callsOf = (profile: Profile) => (profile.collectors['http_client'] as unknown as HttpClientCollectorData).calls;
/** Indexes of the calls the HTTP Client panel flags N+1 (the same analysis). */
const httpLoops = (profile: Profile) => [...analyzeRepeats(callsOf(profile), (call) => httpCallShape(call.method, call.url), (call) => `${call.method} ${call.url}`).nPlusOne];
const httpsGet = (path: string) => new Promise<void>((resolve, reject) => https.get(`${tlsUrl}${path}`, { ca }, (res) => res.resume().on('end', resolve)).on('error', reject)); // m:https-get
const httpGet = (url: string) => new Promise<void>((resolve, reject) => http.get(url, (res) => res.resume().on('end', resolve)).on('error', reject)); // m:http-get

test.before(async () => {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(certificates, 'key.pem'), '-out', join(certificates, 'cert.pem')], { stdio: 'ignore' });
  ca = readFileSync(join(certificates, 'cert.pem'));
  tls = https.createServer({ key: readFileSync(join(certificates, 'key.pem')), cert: ca }, (req, res) => res.writeHead(req.url === '/missing' ? 404 : 200, { 'Content-Type': 'text/plain' }).end('tls'));
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  upstream = await startUpstream();
  const { default: got } = await importModule('got');
  io = await startIoApp([
    route('fetch', async () => {
      for (const id of [1, 2, 3]) await (await fetch(`${upstream.url}/item/${id}`)).text(); // m:fetch-loop
    }),
    route('axios', async () => {
      for (const id of [1, 2, 3]) await axios.get(`${upstream.url}/item/${id}`); // m:axios-loop
      await axios.get(`${upstream.url}/status/500`).catch(() => undefined); // m:axios-500
      await axios.post(`${upstream.url}/json`, { a: 1 }, { headers: { Authorization: 'Bearer SECRETAXIOS' } }); // m:axios-post
      await axios.get(closed).catch(() => undefined); // m:axios-refused
    }),
    route('got', async () => {
      for (const id of [1, 2, 3]) await got(`${upstream.url}/item/${id}`).text();
      await got(`${upstream.url}/status/500`, { retry: { limit: 0 } }).text().catch(() => undefined);
      await got.post(`${upstream.url}/json`, { json: { a: 1 }, headers: { Authorization: 'Bearer SECRETGOT' } }).text();
      await got(closed, { retry: { limit: 0 } }).text().catch(() => undefined);
    }),
    route('undici', async () => {
      for (const id of [1, 2, 3]) await (await undiciRequest(`${upstream.url}/item/${id}`)).body.text(); // m:undici-loop
      await (await undiciFetch(`${upstream.url}/json`, { method: 'POST', body: 'hello', headers: { Authorization: 'Bearer SECRETUNDICI' } })).text(); // m:undici-fetch
      await undiciRequest(closed).catch(() => undefined); // m:undici-refused
    }),
    route('https', async () => {
      for (const id of [1, 2, 3]) await httpsGet(`/item/${id}`);
      await httpsGet('/missing');
    }),
    route('http', async () => {
      for (const id of [1, 2, 3]) await httpGet(`${upstream.url}/item/${id}`);
      await httpGet(closed).catch(() => undefined);
    }),
  ]);
});

test.after.always(async () => {
  await io?.close();
  await upstream?.close();
  await new Promise((resolve) => (tls === undefined ? resolve(undefined) : tls.close(resolve)));
  rmSync(certificates, { recursive: true, force: true });
});

test.serial('axios (node:http): method, URL, status, headers with the secret hidden, sizes, the refused call’s error, each on its line; the loop over /item/{id} is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/axios/1' });
  const calls = callsOf(profile);
  t.deepEqual(calls.map((call) => [call.client, call.method, call.url, call.status, call.error, where(call.origin)]), [
    ['http', 'GET', `${upstream.url}/item/1`, 200, null, line('m:axios-loop')],
    ['http', 'GET', `${upstream.url}/item/2`, 200, null, line('m:axios-loop')],
    ['http', 'GET', `${upstream.url}/item/3`, 200, null, line('m:axios-loop')],
    ['http', 'GET', `${upstream.url}/status/500`, 500, null, line('m:axios-500')],
    ['http', 'POST', `${upstream.url}/json`, 200, null, line('m:axios-post')],
    ['http', 'GET', closed, 0, 'connect ECONNREFUSED 127.0.0.1:1', line('m:axios-refused')],
  ]);
  t.like(calls[4], { requestSize: 7, responseSize: 26, requestHeaders: { authorization: REDACTED, 'content-type': 'application/json' }, responseHeaders: { 'set-cookie': REDACTED } });
  t.deepEqual(httpLoops(profile), [0, 1, 2]);
});

test.serial('got (node:http): its calls are issued by got in the controller, no line of the application’s being on the stack, so its loop is no N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/got/1' });
  const calls = callsOf(profile);
  t.deepEqual(calls.map((call) => [call.client, call.method, call.url, call.status, where(call.origin), call.origin?.function]), [
    ['http', 'GET', `${upstream.url}/item/1`, 200, 'issued by got', 'gotController'],
    ['http', 'GET', `${upstream.url}/item/2`, 200, 'issued by got', 'gotController'],
    ['http', 'GET', `${upstream.url}/item/3`, 200, 'issued by got', 'gotController'],
    ['http', 'GET', `${upstream.url}/status/500`, 500, 'issued by got', 'gotController'],
    ['http', 'POST', `${upstream.url}/json`, 200, 'issued by got', 'gotController'],
    ['http', 'GET', closed, 0, 'issued by got', 'gotController'],
  ]);
  t.regex(calls[5]?.error ?? '', /ECONNREFUSED/);
  t.like(calls[4], { requestSize: 7, requestHeaders: { authorization: REDACTED } });
  t.deepEqual(httpLoops(profile), []);
});

test.serial('undici’s own request and fetch (the npm package) are captured as fetch is, each on its line; the loop is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/undici/1' });
  const calls = callsOf(profile);
  t.deepEqual(calls.map((call) => [call.client, call.method, call.url, call.status, call.error, where(call.origin)]), [
    ['fetch', 'GET', `${upstream.url}/item/1`, 200, null, line('m:undici-loop')],
    ['fetch', 'GET', `${upstream.url}/item/2`, 200, null, line('m:undici-loop')],
    ['fetch', 'GET', `${upstream.url}/item/3`, 200, null, line('m:undici-loop')],
    ['fetch', 'POST', `${upstream.url}/json`, 200, null, line('m:undici-fetch')],
    ['fetch', 'GET', closed, 0, 'connect ECONNREFUSED 127.0.0.1:1', line('m:undici-refused')],
  ]);
  t.like(calls[3], { requestSize: 5, responseSize: 26, requestHeaders: { authorization: REDACTED } });
  t.deepEqual(httpLoops(profile), [0, 1, 2]);
});

test.serial('Node’s fetch: a loop over /item/{id} from one line is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/fetch/1' });
  t.deepEqual(callsOf(profile).map((call) => [call.client, call.url, call.status, where(call.origin)]), [1, 2, 3].map((id) => ['fetch', `${upstream.url}/item/${id}`, 200, line('m:fetch-loop')]));
  t.deepEqual(httpLoops(profile), [0, 1, 2]);
});

test.serial('node:http: URLs, statuses, the refused call’s error, from the line that called http.get; the loop is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/http/1' });
  t.deepEqual(callsOf(profile).map((call) => [call.client, call.method, call.url, call.status, call.error, where(call.origin)]), [
    ...[1, 2, 3].map((id) => ['http', 'GET', `${upstream.url}/item/${id}`, 200, null, line('m:http-get')]),
    ['http', 'GET', closed, 0, 'connect ECONNREFUSED 127.0.0.1:1', line('m:http-get')],
  ]);
  t.like(callsOf(profile)[0], { requestHeaders: { host: new URL(upstream.url).host }, responseHeaders: { 'content-type': 'application/json', 'set-cookie': REDACTED }, responseSize: 28 });
  t.deepEqual(httpLoops(profile), [0, 1, 2]);
});

test.serial('node:https to a TLS server: https URLs and statuses, from the line that called https.get; the loop is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/https/1' });
  const calls = callsOf(profile);
  t.deepEqual(calls.map((call) => [call.client, call.method, call.url, call.status, call.error, where(call.origin)]), [
    ['http', 'GET', `${tlsUrl}/item/1`, 200, null, line('m:https-get')],
    ['http', 'GET', `${tlsUrl}/item/2`, 200, null, line('m:https-get')],
    ['http', 'GET', `${tlsUrl}/item/3`, 200, null, line('m:https-get')],
    ['http', 'GET', `${tlsUrl}/missing`, 404, null, line('m:https-get')],
  ]);
  t.deepEqual(httpLoops(profile), [0, 1, 2]);
});
