import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLoupe, createLogger, type Loupe, type Profile, type RouteDefinition } from '../../../src';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { httpRequest, type HttpRequestOptions } from '../../helpers/http-client';
import { deleteKeys, testConfig } from '../../helpers/test-server';

/** An upstream the application calls: `/json` answers JSON, `/slow?ms=N` after N ms, `/status/N` with status N. */
export async function startUpstream(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const status = /^\/status\/(\d+)$/.exec(url.pathname)?.[1];
    const ms = Number(url.searchParams.get('ms') ?? 0);
    setTimeout(() => {
      const body = JSON.stringify({ path: url.pathname, ok: true });
      res.writeHead(status === undefined ? 200 : Number(status), { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Set-Cookie': 'upstream_session=UPSTREAMCOOKIE' });
      res.end(body);
    }, ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface IoApp {
  readonly app: Loupe;
  readonly port: number;
  close(): Promise<void>;
}

/** A Loupe application with `routes`, debug on, on a free port and a key prefix of its own. */
export async function startIoApp(routes: readonly RouteDefinition[], env: Readonly<Record<string, string>> = {}): Promise<IoApp> {
  const config = testConfig(env);
  const app = createLoupe({ routes, config, logger: createLogger({ level: 'silent', format: 'json' }) });
  const { port } = await app.listen();
  return {
    app,
    port,
    close: async () => {
      await app.close();
      await deleteKeys(config.redis.url, config.redis.prefix);
    },
  };
}

/** Sends `request` and answers the stored profile of the response's X-Debug-Token, once the writer stored it. */
export async function profiledRequest(io: IoApp, request: HttpRequestOptions): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders; profile: Profile }> {
  const { profiler } = io.app;
  if (profiler === null) throw new Error('The application runs without its profiler.');
  for (let i = 0; i < 500 && !profiler.writer.isAvailable; i++) await sleep(10);
  const res = await httpRequest(io.port, request);
  const token = res.headers['x-debug-token'];
  if (typeof token !== 'string') throw new Error(`${request.path} got no X-Debug-Token (status ${res.status}: ${res.body.slice(0, 300)}).`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    await profiler.writer.whenIdle();
    const found = await profiler.storage.read(token);
    if (found.kind === 'found') {
      const parsed = parseProfile(found.json);
      if (!parsed.ok) throw new Error(`The profile ${token} does not read back: ${parsed.error}.`);
      return { ...res, profile: parsed.profile };
    }
    if (Date.now() > deadline) throw new Error(`The profile ${token} was not stored.`);
    await sleep(10);
  }
}
