import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { runServerToExit, spawnServer } from '../helpers/spawn-server';

// One server process at a time: each loads the demo from its TypeScript sources, which on a busy
// machine takes long enough that five at once outlast the test timeout.

/** Resolves once a connection to `port` is refused (the listen socket is closed); rejects after `timeoutMs`. */
async function refused(port: number, timeoutMs = 5_000): Promise<string> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    try {
      await httpRequest(port, { path: '/hello/anna' });
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
  throw new Error(`Port ${port} still accepted connections ${timeoutMs} ms after the signal.`);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test.serial(`${signal} stops accepting, finishes the in-flight request, closes Redis and exits 0`, async (t) => {
    const server = await spawnServer();
    try {
      const inFlight = httpRequest(server.port, { path: '/slow?ms=600' });
      // Answered on a second connection made after the slow request was sent: the server has read that one too.
      t.is((await httpRequest(server.port, { path: '/hello/anna' })).status, 200);
      server.child.kill(signal);
      // The listen socket is closed: a new connection is refused, while the slow request still runs.
      t.regex(await refused(server.port), /ECONNREFUSED|ECONNRESET|socket hang up/);
      const res = await inFlight;
      t.is(res.status, 200);
      t.is(res.body, 'Answered after 600 ms.');
      t.is(await server.exited, 0);
      t.regex(server.output(), new RegExp(`${signal} received`));
    } finally {
      await server.close();
    }
  });
}

test.serial('with no Redis the server refuses to start and says how to get one', async (t) => {
  const { code, output } = await runServerToExit({ REDIS_URL: 'redis://127.0.0.1:1' });
  t.is(code, 1);
  t.regex(output, /Cannot reach Redis at redis:\/\/127\.0\.0\.1:1\. Start one with `docker compose up -d redis`/);
});

test.serial('a Redis URL\'s password is never printed when the server cannot start', async (t) => {
  for (const url of ['redis://:S3CRET-PW@127.0.0.1:1', 'redis://loupe:S3CRET-PW@127.0.0.1:1/2', 'http://:S3CRET-PW@127.0.0.1:1']) {
    const { code, output } = await runServerToExit({ REDIS_URL: url });
    t.is(code, 1);
    t.false(output.includes('S3CRET-PW'), output);
    t.regex(output, /:\*\*\*@127\.0\.0\.1:1/, output);
  }
});

test.serial('an invalid setting stops the start with a message naming it', async (t) => {
  const { code, output } = await runServerToExit({ APP_ENV: 'staging' });
  t.is(code, 1);
  t.regex(output, /Invalid APP_ENV "staging": expected dev, prod or test\./);
});
