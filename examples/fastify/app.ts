import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { loupe } from 'loupe-kernel/fastify';
import pg from 'pg';

const PORT = Number(process.env['PORT'] ?? 3000);
const HOST = process.env['HOST'] ?? '127.0.0.1';

// An HTML page: the profiler puts its toolbar before </body>.
const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Fastify + Loupe</title></head>
  <body>
    <h1>Fastify, profiled by Loupe</h1>
    <ul>
      <li><a href="/users/7">/users/7</a>: a PostgreSQL query</li>
      <li><a href="/relay/7">/relay/7</a>: an HTTP call (fetch) to /users/7</li>
      <li><a href="/visits">/visits</a>: a Redis command</li>
      <li><a href="/boom">/boom</a>: an error</li>
    </ul>
    <p>Every request's profile: <a href="/_profiler/">/_profiler/</a></p>
  </body>
</html>`;

async function main(): Promise<void> {
  const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  // The application's own Redis client; its keys go beside the profiler's, under REDIS_PREFIX.
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { keyPrefix: `${process.env['REDIS_PREFIX'] ?? 'loupe:'}example:` });
  const app = Fastify({ logger: true });
  // First, before the routes and the other plugins, so that its hooks run before theirs.
  await app.register(loupe);

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));

  app.get<{ Params: { id: string } }>('/users/:id', async function showUser(request) {
    const { rows } = await pool.query<{ id: number; name: string }>("SELECT $1::int AS id, 'User ' || $1::int AS name", [request.params.id]);
    // request.log's lines are in the request's Logs panel too.
    request.log.info({ id: request.params.id }, 'Read a user.');
    return rows[0];
  });

  app.get<{ Params: { id: string } }>('/relay/:id', async function relayUser(request) {
    const response = await fetch(`${app.listeningOrigin}/users/${encodeURIComponent(request.params.id)}`);
    return { status: response.status, user: await response.json() };
  });

  app.get('/visits', async function countVisit() {
    return { visits: await redis.incr('visits') };
  });

  app.get('/boom', async function boom() {
    throw new Error('Boom: this route always fails.');
  });

  await app.listen({ port: PORT, host: HOST });
  console.log(`Fastify example listening on ${app.listeningOrigin}; profiles at ${app.listeningOrigin}/_profiler/`);

  const stop = async (): Promise<void> => {
    await app.close();
    await Promise.all([pool.end(), redis.quit()]);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
