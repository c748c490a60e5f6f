import { type AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { loupe } from 'loupe-kernel/express';
import pg from 'pg';

const PORT = Number(process.env['PORT'] ?? 3000);
const HOST = process.env['HOST'] ?? '127.0.0.1';

// An HTML page: the profiler puts its toolbar before </body>.
const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Express + Loupe</title></head>
  <body>
    <h1>Express, profiled by Loupe</h1>
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
const app = express();
// The first middleware: what runs before it is not in the profile.
app.use(profiler);

app.get('/', (_req, res) => {
  res.type('html').send(PAGE);
});

app.get('/users/:id', async function showUser(req, res) {
  const { rows } = await pool.query<{ id: number; name: string }>("SELECT $1::int AS id, 'User ' || $1::int AS name", [req.params.id]);
  res.json(rows[0]);
});

app.get('/relay/:id', async function relayUser(req, res) {
  const response = await fetch(`${origin()}/users/${encodeURIComponent(req.params.id)}`);
  res.json({ status: response.status, user: await response.json() });
});

app.get('/visits', async function countVisit(_req, res) {
  res.json({ visits: await redis.incr('visits') });
});

// Express 5 hands a thrown error (or a rejected promise) to its error handler: a 500.
app.get('/boom', function boom() {
  throw new Error('Boom: this route always fails.');
});

const server = app.listen(PORT, HOST, (error?: Error) => {
  if (error !== undefined) {
    console.error(error);
    process.exit(1);
  }
  console.log(`Express example listening on ${origin()}; profiles at ${origin()}/_profiler/`);
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
