import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { runServerToExit, spawnServer } from '../helpers/spawn-server';

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} stops accepting, finishes the in-flight request, closes Redis and exits 0`, async (t) => {
    const server = await spawnServer();
    const inFlight = httpRequest(server.port, { path: '/slow?ms=600' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    server.child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The listen socket is closed at once: a new connection is refused.
    await t.throwsAsync(httpRequest(server.port, { path: '/hello/anna' }), { message: /ECONNREFUSED|ECONNRESET|socket hang up/ });
    const res = await inFlight;
    t.is(res.status, 200);
    t.is(res.body, 'Answered after 600 ms.');
    t.is(await server.exited, 0);
    t.regex(server.output(), new RegExp(`${signal} received`));
  });
}

test('the server refuses to start on the pure-JS fallback of uWebSockets.js', async (t) => {
  const { code, output } = await runServerToExit({ UWS_USE_FALLBACK: '1' });
  t.is(code, 1);
  t.regex(output, /uWebSockets\.js loaded its pure-JS fallback instead of the native binary/);
});

test('with no Redis the server refuses to start and says how to get one', async (t) => {
  const { code, output } = await runServerToExit({ REDIS_URL: 'redis://127.0.0.1:1' });
  t.is(code, 1);
  t.regex(output, /Cannot reach Redis at redis:\/\/127\.0\.0\.1:1\. Start one with `docker compose up -d redis`/);
});

test('an invalid setting stops the start with a message naming it', async (t) => {
  const { code, output } = await runServerToExit({ APP_ENV: 'staging' });
  t.is(code, 1);
  t.regex(output, /Invalid APP_ENV "staging": expected dev, prod or test\./);
});
