import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { profileServer } from 'loupe-kernel/node';
import pg from 'pg';

const PORT = Number(process.env['PORT'] ?? 3000);
const HOST = process.env['HOST'] ?? '127.0.0.1';

// An HTML page: the profiler puts its toolbar before </body>.
const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Koa + Loupe</title></head>
  <body>
    <h1>Koa, profiled by Loupe</h1>
    <ul>
      <li><a href="/users/7">/users/7</a>: a PostgreSQL query</li>
      <li><a href="/relay/7">/relay/7</a>: an HTTP call (fetch) to /users/7</li>
      <li><a href="/visits">/visits</a>: a Redis command</li>
      <li><a href="/boom">/boom</a>: an error</li>
    </ul>
    <p>Every request's profile: <a href="/_profiler/">/_profiler/</a></p>
  </body>
</html>`;

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
// The application's own Redis client; its keys go beside the profiler's, under REDIS_PREFIX.
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { keyPrefix: `${process.env['REDIS_PREFIX'] ?? 'loupe:'}example:` });

const app = new Koa();

// Routes by hand, to keep to Koa itself; with @koa/router each would be a router.get(…).
app.use(async (ctx) => {
  if (ctx.method !== 'GET') return;
  const [, route, id] = /^\/([a-z]*)(?:\/([^/]+))?$/.exec(ctx.path) ?? [];
  if (route === '' && id === undefined) {
    ctx.type = 'html';
    ctx.body = PAGE;
  } else if (route === 'users' && id !== undefined) {
    const { rows } = await pool.query<{ id: number; name: string }>("SELECT $1::int AS id, 'User ' || $1::int AS name", [id]);
    ctx.body = rows[0];
  } else if (route === 'relay' && id !== undefined) {
    const response = await fetch(`${origin()}/users/${encodeURIComponent(id)}`);
    ctx.body = { status: response.status, user: await response.json() };
  } else if (route === 'visits' && id === undefined) {
    ctx.body = { visits: await redis.incr('visits') };
  } else if (route === 'boom' && id === undefined) {
    // Koa answers it with a 500 and tells its 'error' listeners.
    throw new Error('Boom: this route always fails.');
  }
  // Anything else: no body, Koa's 404.
});

// After the middleware: callback() composes those added so far.
const server = http.createServer(app.callback());

/** Where the server listens, for the requests it makes to itself. */
function origin(): string {
  return `http://${HOST}:${(server.address() as AddressInfo).port}`;
}

async function main(): Promise<void> {
  // Koa logs the errors it catches (its own 'error' listener, added by callback() above).
  // Every request of the server, whatever answers it; null when the profiler is off (NODE_ENV=production).
  const profiled = await profileServer(server);
  if (profiled !== null) {
    // node:http never sees the errors Koa catches: its 'error' event hands them to the request's
    // profile, found where Koa emits it, inside the request. Loaded only when the profiler is on.
    const { currentRequest, ProfiledRequest } = await import('loupe-kernel/profiler');
    app.on('error', (error: unknown) => {
      const request = currentRequest();
      if (request instanceof ProfiledRequest) request.fail(error);
    });
  }
  await new Promise<void>((resolve) => server.listen(PORT, HOST, resolve));
  console.log(`Koa example listening on ${origin()}; profiles at ${origin()}/_profiler/`);

  const stop = async (): Promise<void> => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await profiled?.close();
    await Promise.all([pool.end(), redis.quit()]);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
