'use strict';
// Fastify 5 as in fastify.js with Loupe's profiler (loupe-kernel/fastify, from this checkout's
// build, or the one LOUPE_BUILD names: BENCH_BASELINE's) profiling every request and storing each
// profile in Redis, as Loupe debug does.
const path = require('node:path');
const build = process.env.LOUPE_BUILD || path.join(__dirname, '..', '..', 'dist');
const { loupe } = require(path.join(build, 'src', 'profiler', 'adapters', 'fastify'));

async function main() {
  const fastify = require('fastify')({ logger: false });
  await fastify.register(loupe, { enabled: true });
  fastify.get('/hello/:name', async (request, reply) => {
    reply.type('text/html; charset=utf-8');
    return `<h1>Hello ${request.params.name}!</h1>`;
  });
  const port = Number(process.env.PORT || 8005);
  await fastify.listen({ host: '127.0.0.1', port });
  console.log(`Fastify + Loupe profiler listening on http://127.0.0.1:${port}`);
  // Profiles still queued are stored before the process ends.
  process.on('SIGTERM', () => {
    fastify.close().finally(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
