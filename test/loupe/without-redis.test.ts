import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { createLogger, createLoupe, LoupeError, readConfig, LoupeResponse, serve } from '../../src';
import { TYPESCRIPT } from '../helpers/typescript-loader';

/*
 * An application without Redis (REDIS_URL set empty, or `redis: null` in a configuration made in
 * code): sessions, login throttling and profiles in the process's memory, so that its tests need
 * no service. What it opens and loads is checked in a process of its own (the fixture), where
 * nothing else of the test runner has connected to anything or loaded ioredis.
 */

interface Injected {
  readonly hello: [number, string];
  readonly sessions: [string, string];
  readonly logins: number[];
  readonly locked: [number, string | null];
  readonly token: string;
  readonly profile: [number, string | null];
  readonly storage: string;
}

interface Report {
  readonly injected: Injected;
  readonly injectedInCode: Injected;
  readonly served: { readonly sessions: [string, string]; readonly listening: string | null };
  readonly ioredisLoaded: boolean;
  readonly otherSockets: number;
  readonly sockets: number;
}

let report: Promise<Report> | null = null;

/** Runs the fixture once for the tests below. */
function runFixture(): Promise<Report> {
  return (report ??= (async () => {
    // A trap for a stray read of the process's environment: a connection to it would be counted.
    const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: 'redis://127.0.0.1:1' };
    delete env['REDIS_CLUSTER_NODES'];
    const fixture = path.resolve(__dirname, '..', 'fixtures', 'loupe-without-redis.ts');
    const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, fixture], { cwd: path.resolve(__dirname, '..', '..'), env, timeout: 90_000 });
    return JSON.parse(stdout) as Report;
  })());
}

function assertServedFromMemory(t: ExecutionContext, injected: Injected): void {
  t.deepEqual(injected.hello, [200, 'hello'], 'a route is served');
  t.deepEqual(injected.sessions, ['1', '2'], 'the session written by the first request is read by the second, its cookie passed back');
  t.deepEqual(injected.logins, [401, 401, 401, 401, 401, 429], 'five wrong passwords are checked, the sixth attempt is throttled');
  t.is(injected.locked[0], 429, 'the right password is refused too once locked out');
  t.regex(String(injected.locked[1]), /^[1-9][0-9]*$/, 'with Retry-After');
  t.regex(injected.token, /^[0-9a-f]{6}$/);
  t.deepEqual(injected.profile, [200, 'http://localhost/hello'], 'the profile is read back through inject()');
  t.is(injected.storage, 'memory');
}

test('with REDIS_URL set empty, inject() serves routes, sessions, the login throttle and the profiler from memory', async (t) => {
  t.timeout(120_000);
  assertServedFromMemory(t, (await runFixture()).injected);
});

test('with redis: null in a configuration made in code, inject() serves the same from memory', async (t) => {
  t.timeout(120_000);
  assertServedFromMemory(t, (await runFixture()).injectedInCode);
});

test('served without Redis on a free port, real HTTP requests keep their session, and the listening line says that it is kept in memory', async (t) => {
  t.timeout(120_000);
  const { served } = await runFixture();
  t.deepEqual(served.sessions, ['1', '2']);
  t.regex(String(served.listening), /^Loupe listening on http:\/\/127\.0\.0\.1:\d+ — profiler: .* \(APP_ENV=test, debug on, no Redis: sessions, login throttling and profiles in memory \(this process only\); process tuned: [^()]+\)$/);
});

test('an application without Redis opens no connection to any Redis and loads no Redis client', async (t) => {
  t.timeout(120_000);
  const { ioredisLoaded, otherSockets, sockets } = await runFixture();
  t.false(ioredisLoaded);
  t.true(sockets >= 1, "the fixture's own HTTP requests were seen");
  t.is(otherSockets, 0);
});

test('serve() refuses several workers without Redis in a configuration made in code, before it starts any', async (t) => {
  const config = { ...readConfig({ APP_ENV: 'test', PORT: '0' }), redis: null, server: { host: '127.0.0.1', port: 0, maxBodySize: 1024, workers: 2 } };
  let created = 0;
  const logger = createLogger({ level: 'silent', format: 'json' });
  const error = await t.throwsAsync(
    serve(
      (appConfig, appLogger) => {
        created += 1;
        return createLoupe({ config: appConfig, logger: appLogger, routes: [{ name: 'home', path: '/', methods: ['GET'], controller: { name: 'home', handle: () => new LoupeResponse('home') } }] });
      },
      { config, logger },
    ),
    { instanceOf: LoupeError, message: /^Invalid WORKERS "2": expected 1 without Redis \(REDIS_URL is empty\): .*a user logged in by one worker would be unknown to the others\. Set REDIS_URL to run several workers\.$/ },
  );
  t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
  t.is(created, 0);
});
