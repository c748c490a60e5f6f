import test from 'ava';
import { demoRoutes } from '../../demo/routes';
import { CredentialsVerifier, InMemoryUserProvider } from '../../src';
import { DEFAULT_PANELS } from '../../src/profiler/ui/panel/panel-registry';
import { profilePath } from '../../src/profiler/profiler-paths';
import { profileRequests } from './ui/cli/profile-requests';
import { runLoupe } from '../cli/run-loupe';
import { httpRequest, type HttpRequestOptions } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

/*
 * Plants a distinct secret in every place a client can put one, on every demo route and on the
 * error paths, then looks for each in everything the profiler keeps or shows: every Redis value
 * under the test prefix, the JSON API, every panel of every profile, and the CLI's output.
 * Harmless markers in harmless places must still show, or the test would prove nothing.
 */

/** Every secret planted, by where it was planted. */
const secrets = new Map<string, string>();
/** Every harmless marker planted, by where it was planted. */
const visible = new Map<string, string>();
let counter = 0;

function secret(where: string): string {
  const marker = `SECRETMARK${++counter}X`;
  secrets.set(marker, where);
  return marker;
}

function harmless(where: string): string {
  const marker = `VISIBLEMARK${++counter}X`;
  visible.set(marker, where);
  return marker;
}

/**
 * The requests whose profiles the CLI test reads: the CLI formats every profile with the same
 * code and each run costs a process start, so a few that hold every kind of input: a JSON body
 * with headers and cookies, a redirect's Location, a 404 naming its Referer, a malformed body.
 */
const shownByCli = new Set<object>();

function alsoByCli(request: HttpRequestOptions): HttpRequestOptions {
  shownByCli.add(request);
  return request;
}

const encode = (text: string): string => encodeURIComponent(text);

/** A query string with a secret under each secret-looking name, and one harmless parameter. */
function query(where: string): string {
  const secretNames = ['token', 'password', 'api_key', 'apiKey', 'access_token', 'client_secret', 'sig', 'PHPSESSID', 'auth', 'user[password]'];
  const pairs = secretNames.map((name) => `${encode(name)}=${secret(`${where}: query ${name}`)}`);
  // A URL in a harmless parameter, with a secret in its own query, encoded as a redirect target is.
  pairs.push(`next=${encode(`/account?token=${secret(`${where}: token inside an encoded next= URL`)}`)}`);
  pairs.push(`q=${harmless(`${where}: query q`)}`);
  return pairs.join('&');
}

/**
 * Headers of every secret kind, cookies, a Referer with a token and one harmless header; Basic
 * credentials when `basic` (the firewall answers them with a 401 on every route, so only some carry them).
 */
function headers(where: string, basic = false): Record<string, string> {
  const named = ['X-Api-Key', 'X-Auth-Token', 'Api-Key', 'X-Access-Token', 'X-Amz-Security-Token', 'Private-Token', 'X-CSRF-Token', 'Proxy-Authorization', 'X-Session-Id'];
  const out: Record<string, string> = Object.fromEntries(named.map((name) => [name, secret(`${where}: header ${name}`)]));
  if (basic) {
    const credentials = Buffer.from(`admin:${secret(`${where}: Basic password`)}`).toString('base64');
    secrets.set(credentials, `${where}: Basic credentials, encoded`);
    out['Authorization'] = `Basic ${credentials}`;
  }
  const cookies = ['LOUPESESSID', 'REMEMBERME', 'sessionid', 'PHPSESSID', 'jwt', 'theme'];
  out['Cookie'] = cookies.map((name) => `${name}=${secret(`${where}: cookie ${name}`)}`).join('; ');
  const referer = `http://user:${secret(`${where}: Referer password`)}@elsewhere.test/page?token=${secret(`${where}: Referer token`)}&from=${harmless(`${where}: Referer from`)}`;
  out['Referer'] = referer;
  out['X-Request-Note'] = harmless(`${where}: header X-Request-Note`);
  return out;
}

function jsonBody(where: string): string {
  return JSON.stringify({
    username: 'admin',
    password: secret(`${where}: JSON password`),
    comment: harmless(`${where}: JSON comment`),
    profile: { api_key: secret(`${where}: JSON profile.api_key`), settings: [{ accessToken: secret(`${where}: JSON settings[0].accessToken`), theme: 'dark' }] },
    link: `https://elsewhere.test/cb?code=1&signature=${secret(`${where}: JSON link signature`)}`,
  });
}

function formBody(where: string): string {
  return [
    `_username=admin`,
    `_password=${secret(`${where}: form _password`)}`,
    `${encode('user[credentials][pin]')}=${secret(`${where}: form user[credentials][pin]`)}`,
    `note=${harmless(`${where}: form note`)}`,
  ].join('&');
}

/** Every demo route with its parameters filled in, each method of it. */
function routeRequests(locales: readonly string[]): HttpRequestOptions[] {
  const routes = demoRoutes(locales, new CredentialsVerifier(new InMemoryUserProvider([])));
  const requests: HttpRequestOptions[] = [];
  for (const route of routes) {
    const path = route.path.replace('{_locale}', locales[0] ?? 'en').replace(/\{[^}]+\}/g, 'visitor');
    for (const method of route.methods ?? ['GET']) {
      const where = `${method} ${route.name}`;
      const extra = route.name === 'slow' ? '&ms=0' : '';
      const request = { method, path: `${path}?${query(where)}${extra}`, headers: headers(where) };
      if (method !== 'POST') requests.push(request);
      else {
        const json = { ...request, headers: { ...request.headers, 'Content-Type': 'application/json' }, body: jsonBody(where) };
        requests.push(route.name === 'api_echo' ? alsoByCli(json) : json);
        const where2 = `${where} (form)`;
        const form = { method, path: `${path}?${query(where2)}`, headers: { ...headers(where2), 'Content-Type': 'application/x-www-form-urlencoded' }, body: formBody(where2) };
        requests.push(form);
      }
    }
  }
  return requests;
}

/** The error paths: a redirect, a 401, a 404, a 405, malformed bodies. */
function errorRequests(): HttpRequestOptions[] {
  return [
    alsoByCli({ path: `/hello/visitor/?${query('trailing-slash redirect')}`, headers: headers('trailing-slash redirect') }),
    { path: `/admin?${query('401')}`, headers: headers('401', true) },
    { path: `/hello/visitor?${query('Basic on a public route')}`, headers: headers('Basic on a public route', true) },
    alsoByCli({ path: `/nowhere/at/all?${query('404')}`, headers: headers('404') }),
    { method: 'POST', path: `/hello/visitor?${query('405')}`, headers: headers('405') },
    alsoByCli({
      method: 'POST',
      path: `/api/echo?${query('malformed JSON')}`,
      headers: { ...headers('malformed JSON'), 'Content-Type': 'application/json' },
      body: `{"password":"${secret('malformed JSON: password')}", "nested": {"token": "${secret('malformed JSON: nested token')}"`,
    }),
    {
      method: 'POST',
      path: `/api/echo?${query('form sent as JSON')}`,
      headers: { ...headers('form sent as JSON'), 'Content-Type': 'application/json' },
      body: `password=${secret('form sent as JSON: password')}`,
    },
    {
      method: 'POST',
      path: `/login?${query('malformed login')}`,
      headers: { ...headers('malformed login'), 'Content-Type': 'application/json' },
      body: `{"username": "admin", "password": "${secret('malformed login: password')}"`,
    },
  ];
}

let server: TestServer;
let requests: HttpRequestOptions[] = [];
let tokens: string[] = [];
/** Main and sub-request profiles. */
let allTokens: string[] = [];

test.before(async () => {
  server = await startTestServer();
  requests = [...routeRequests(server.config.locale.enabledLocales), ...errorRequests()];
  tokens = await profileRequests(server, requests);
  const storage = server.profiler?.storage;
  if (storage === undefined) throw new Error('The test server runs with debug: the profiler must be on.');
  const children = await Promise.all(
    tokens.map(async (token) => {
      const found = await storage.read(token);
      return found.kind === 'found' ? ((JSON.parse(found.json) as { children: string[] }).children ?? []) : [];
    }),
  );
  allTokens = [...tokens, ...children.flat()];
});

test.after.always(async () => {
  await server?.close();
});

/** The secrets found in `text`, with where each was planted. */
function leaked(text: string): string[] {
  return [...secrets].filter(([marker]) => text.includes(marker)).map(([marker, where]) => `${marker} (${where})`);
}

function missing(text: string, markers: readonly string[]): string[] {
  return markers.filter((marker) => !text.includes(marker)).map((marker) => `${marker} (${visible.get(marker) ?? '?'})`);
}

/** Every key under the test prefix and its raw value(s), whatever its type. */
async function redisDump(): Promise<string> {
  const { redis } = server;
  const prefix = server.config.redis.prefix;
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000);
    cursor = next;
    for (const key of keys) {
      parts.push(key);
      const type = await redis.type(key);
      if (type === 'string') parts.push((await redis.get(key)) ?? '');
      else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') parts.push(...(await redis.lrange(key, 0, -1)));
      else if (type === 'zset') parts.push(...(await redis.zrange(key, 0, -1, 'WITHSCORES')));
      else if (type === 'set') parts.push(...(await redis.smembers(key)));
      else parts.push(`(a ${type} this test cannot read: ${key})`);
    }
  } while (cursor !== '0');
  return parts.join('\n');
}

test('every demo route and error path was profiled, with sub-requests for the errors', (t) => {
  t.true(tokens.length >= 17, `${tokens.length} requests profiled`);
  t.true(allTokens.length > tokens.length, 'the errors were rendered by profiled sub-requests');
});

test('no secret is in Redis, in keys or values of any type', async (t) => {
  const dump = await redisDump();
  t.true(dump.length > 0);
  t.deepEqual(leaked(dump), []);
  t.deepEqual(missing(dump, [...visible.keys()]), [], 'every harmless marker is stored');
});

test('no secret is in the JSON API of any profile; the harmless markers are', async (t) => {
  const bodies = await Promise.all(allTokens.map((token) => httpRequest(server.port, { path: profilePath(token), headers: { Accept: 'application/json' } })));
  for (const res of bodies) t.is(res.status, 200);
  const all = bodies.map((res) => res.body).join('\n');
  t.deepEqual(leaked(all), []);
  t.deepEqual(missing(all, [...visible.keys()]), []);
  const search = await httpRequest(server.port, { path: '/_profiler/search?limit=100', headers: { Accept: 'application/json' } });
  t.is(search.status, 200);
  t.deepEqual(leaked(search.body), []);
});

test('no secret is in any panel of any profile', async (t) => {
  const pages: string[] = [];
  for (const token of allTokens) {
    const panels = await Promise.all(DEFAULT_PANELS.map((panel) => httpRequest(server.port, { path: profilePath(token, panel.name) })));
    for (const page of panels) t.is(page.status, 200);
    pages.push(...panels.map((page) => page.body));
  }
  const all = pages.join('\n');
  t.deepEqual(leaked(all), []);
  t.deepEqual(missing(all, [...visible.keys()]), []);
});


test('no secret is in what the CLI shows of a profile of each kind, nor in its list', async (t) => {
  const env = { REDIS_PREFIX: server.config.redis.prefix };
  const chosen = tokens.filter((_, i) => shownByCli.has(requests[i] ?? {}));
  t.is(chosen.length, 4);
  const runs = await Promise.all([...chosen.map((token) => runLoupe(['profiler:show', token], env)), runLoupe(['profiler:list', '--limit', '100'], env)]);
  for (const run of runs) t.is(run.code, 0, run.stderr);
  const all = runs.map((run) => `${run.stdout}\n${run.stderr}`).join('\n');
  t.deepEqual(leaked(all), []);
  const inUrls = [...visible].filter(([, where]) => where.includes('query q')).map(([marker]) => marker);
  t.deepEqual(missing(all, inUrls), [], 'the harmless query parameter shows in the URLs');
});
