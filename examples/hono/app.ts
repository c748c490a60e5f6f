import { type AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import { loupe } from 'loupe-kernel/hono';
import pg from 'pg';

const PORT = Number(process.env['PORT'] ?? 3000);
const HOST = process.env['HOST'] ?? '127.0.0.1';

// An HTML page: the profiler puts its toolbar before </body>.
const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Hono + Loupe</title></head>
  <body>
    <h1>Hono, profiled by Loupe</h1>
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

const profiler = loupe();
const app = new Hono();
// The first middleware: what runs before it is not in the profile.
app.use(profiler);

app.get('/', (c) => c.html(PAGE));

app.get('/users/:id', async function showUser(c) {
  const { rows } = await pool.query<{ id: number; name: string }>("SELECT $1::int AS id, 'User ' || $1::int AS name", [c.req.param('id')]);
  return c.json(rows[0]);
});

app.get('/relay/:id', async function relayUser(c) {
  const response = await fetch(`${origin()}/users/${encodeURIComponent(c.req.param('id'))}`);
  return c.json({ status: response.status, user: await response.json() });
});

app.get('/visits', async function countVisit(c) {
  return c.json({ visits: await redis.incr('visits') });
});

// Hono hands a thrown error (or a rejected promise) to its onError, by default a 500.
app.get('/boom', function boom() {
  throw new Error('Boom: this route always fails.');
});

const server = serve({ fetch: app.fetch, port: PORT, hostname: HOST }, () => {
  console.log(`Hono example listening on ${origin()}; profiles at ${origin()}/_profiler/`);
});

/** Where the server listens, for the requests it makes to itself. */
function origin(): string {
  return `http://${HOST}:${(server.address() as AddressInfo).port}`;
}

async function stop(): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await profiler.close();
  await Promise.all([pool.end(), redis.quit()]);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
