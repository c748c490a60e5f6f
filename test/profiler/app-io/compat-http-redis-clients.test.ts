import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import axios from 'axios';
import Redis from 'ioredis';
import Redis6 from 'ioredis6';
import { fetch as undiciFetch, request as undiciRequest } from 'undici';
import { type Profile } from '../../../src';
import { analyzeRepeats } from '../../../src/profiler/app-io/analyze-repeats';
import { httpCallShape } from '../../../src/profiler/app-io/http-call-shape';
import { type HttpClientCollectorData, type RedisCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { REDACTED } from '../../../src/profiler/collect/redaction-policy';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';
import { at, originOf, route } from './compat-helpers';

/*
 * Compatibility (docs/app-io.md): axios, got, undici's own `request` and `fetch`, node:https to a
 * TLS server with a certificate made for the test, ioredis 5 and 6, each the real library against
 * a real local server and the real Redis of this machine, over real HTTP.
 */

/** got as far as these tests use it: got 14 is an ES module only, loaded with a real `import()`. */
type Got = ((url: string, options?: { retry?: { limit: number } }) => { text(): Promise<string> }) & {
  post(url: string, options: { json: unknown; headers: Record<string, string> }): { text(): Promise<string> };
};
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ default: Got }>;

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const keyPrefix = `loupe-test-compat:${randomBytes(3).toString('hex')}:`;
const line = at(__filename);
const where = (origin: Parameters<typeof originOf>[0]) => originOf(origin, __filename);
const closed = 'http://127.0.0.1:1/closed';
const certificates = mkdtempSync(join(tmpdir(), 'loupe-compat-tls-'));
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let tls: https.Server;
let tlsUrl: string;
let ca: Buffer;
const redis5 = new Redis(REDIS_URL, { lazyConnect: true });
const redis6 = new Redis6(REDIS_URL, { lazyConnect: true });
let io: IoApp;

const callsOf = (profile: Profile) => (profile.collectors['http_client'] as unknown as HttpClientCollectorData).calls;
const commandsOf = (profile: Profile) => (profile.collectors['redis'] as unknown as RedisCollectorData).commands;
/** Indexes of the calls the HTTP Client panel flags N+1 (the same analysis). */
const httpLoops = (profile: Profile) => [...analyzeRepeats(callsOf(profile), (call) => httpCallShape(call.method, call.url), (call) => `${call.method} ${call.url}`).nPlusOne];
const httpsGet = (path: string) => new Promise<void>((resolve, reject) => https.get(`${tlsUrl}${path}`, { ca }, (res) => res.resume().on('end', resolve)).on('error', reject)); // m:https-get

test.before(async (t) => {
  try {
    await Promise.all([redis5.connect(), redis6.connect()]);
  } catch (error) {
    t.fail(`No Redis at ${REDIS_URL}: start one with scripts/ensure-redis.sh (${String(error)}).`);
  }
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(certificates, 'key.pem'), '-out', join(certificates, 'cert.pem')], { stdio: 'ignore' });
  ca = readFileSync(join(certificates, 'cert.pem'));
  tls = https.createServer({ key: readFileSync(join(certificates, 'key.pem')), cert: ca }, (req, res) => res.writeHead(req.url === '/missing' ? 404 : 200, { 'Content-Type': 'text/plain' }).end('tls'));
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  upstream = await startUpstream();
  const { default: got } = await importModule('got');
  const redisRoute = (name: string, redis: Redis) =>
    route(name, async () => {
      for (const id of [1, 2, 3]) await redis.get(`${keyPrefix}${id}`); // m:redis-loop
      await redis.set(`${keyPrefix}value`, 'SECRETVALUE'); // m:redis-set
      await redis.multi().incr(`${keyPrefix}n`).expire(`${keyPrefix}n`, 60).exec(); // m:redis-multi
      await redis.pipeline().get(`${keyPrefix}value`).get(`${keyPrefix}n`).exec(); // m:redis-pipeline
      await redis.call('LOUPE.NOSUCH').catch(() => undefined); // m:redis-error
      await redis.del(`${keyPrefix}value`, `${keyPrefix}n`); // m:redis-del
    });
  io = await startIoApp([
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
    redisRoute('ioredis5', redis5),
    redisRoute('ioredis6', redis6 as unknown as Redis),
  ]);
});

test.after.always(async () => {
  await io?.close();
  await upstream?.close();
  await new Promise((resolve) => (tls === undefined ? resolve(undefined) : tls.close(resolve)));
  rmSync(certificates, { recursive: true, force: true });
  const keys = redis5.status === 'ready' ? await redis5.keys(`${keyPrefix}*`) : [];
  if (keys.length > 0) await redis5.del(...keys);
  redis5.disconnect();
  redis6.disconnect();
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

for (const name of ['ioredis5', 'ioredis6']) {
  test.serial(`${name}: commands with written values hidden, a MULTI as a TRANSACTION entry then its commands, a pipeline as its commands alone, the error, each on its line`, async (t) => {
    const { profile } = await profiledRequest(io, { path: `/${name}/1` });
    const commands = commandsOf(profile);
    t.deepEqual(commands.map((command) => [command.client, command.command, command.args.join(' '), command.batch ?? null, command.database, where(command.origin)]), [
      ['ioredis', 'GET', `${keyPrefix}1`, null, 0, line('m:redis-loop')],
      ['ioredis', 'GET', `${keyPrefix}2`, null, 0, line('m:redis-loop')],
      ['ioredis', 'GET', `${keyPrefix}3`, null, 0, line('m:redis-loop')],
      ['ioredis', 'SET', `${keyPrefix}value ?`, null, 0, line('m:redis-set')],
      ['ioredis', 'TRANSACTION', '', 2, 0, line('m:redis-multi')],
      ['ioredis', 'MULTI', '', null, 0, line('m:redis-multi')],
      ['ioredis', 'INCR', `${keyPrefix}n`, null, 0, line('m:redis-multi')],
      ['ioredis', 'EXPIRE', `${keyPrefix}n 60`, null, 0, line('m:redis-multi')],
      ['ioredis', 'EXEC', '', null, 0, line('m:redis-multi')],
      ['ioredis', 'GET', `${keyPrefix}value`, null, 0, line('m:redis-pipeline')],
      ['ioredis', 'GET', `${keyPrefix}n`, null, 0, line('m:redis-pipeline')],
      ['ioredis', 'LOUPE.NOSUCH', '', null, 0, line('m:redis-error')],
      ['ioredis', 'DEL', `${keyPrefix}value ${keyPrefix}n`, null, 0, line('m:redis-del')],
    ]);
    t.regex(commands[11]?.error ?? '', /unknown command/i);
    t.true(commands.every((command, index) => (index === 11) === (command.error !== null) && command.duration !== null));
    t.false(JSON.stringify(profile).includes('SECRETVALUE'));
  });
}
