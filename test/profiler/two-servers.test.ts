import test from 'ava';
import http from 'node:http';
import { httpRequest, type HttpResult } from '../helpers/http-client';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server';
import { testKeyPrefix } from '../helpers/test-redis';

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function tokenOf(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        const token = res.headers['x-debug-token'];
        res.on('end', () => (typeof token === 'string' ? resolve(token) : reject(new Error(`no token on ${path}`))));
      })
      .on('error', reject);
  });
}

/**
 * The profile JSON of `token` read through the server on `port`, once stored: the writer stores
 * after the response, so the first reads may still find nothing (404).
 */
async function storedProfile(port: number, token: string, timeoutMs = 10_000): Promise<HttpResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
    if (res.status !== 404 || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('two server processes sharing one Redis: tokens never collide and each reads the other\'s traces', async (t) => {
  const prefix = testKeyPrefix();
  const servers: SpawnedServer[] = await Promise.all([spawnServer({ REDIS_PREFIX: prefix }), spawnServer({ REDIS_PREFIX: prefix })]);
  try {
    const [one, two] = servers;
    if (one === undefined || two === undefined) return t.fail('two servers');
    const tokens: { port: number; token: string }[] = [];
    // Both processes under load at once, 16 requests in flight.
    for (let round = 0; round < 250; round++) {
      const batch = await Promise.all(
        Array.from({ length: 16 }, (_, i) => {
          const port = i % 2 === 0 ? one.port : two.port;
          return tokenOf(port, `/hello/p${port}-${round}-${i}`).then((token) => ({ port, token }));
        }),
      );
      tokens.push(...batch);
    }
    t.is(tokens.length, 4_000);
    t.is(new Set(tokens.map(({ token }) => token)).size, tokens.length, 'no token was handed out twice');

    // A trace recorded by one process, read through the other one's JSON API.
    const fromOne = tokens.filter(({ port }) => port === one.port).slice(-3);
    const fromTwo = tokens.filter(({ port }) => port === two.port).slice(-3);
    for (const [{ token }, readerPort] of [...fromOne.map((x) => [x, two.port] as const), ...fromTwo.map((x) => [x, one.port] as const)]) {
      const res = await storedProfile(readerPort, token);
      t.is(res.status, 200, `${token} through port ${readerPort}`);
      const profile = JSON.parse(res.body) as { token: string; url: string };
      t.is(profile.token, token);
      t.regex(profile.url, /\/hello\/p\d+-/);
    }
  } finally {
    agent.destroy();
    await Promise.all(servers.map((server) => server.close()));
  }
});
