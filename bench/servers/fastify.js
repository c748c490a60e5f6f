'use strict';
// The peer: Fastify 5 with its default 404 handler and one route, logging off.
const fastify = require('fastify')({ logger: false });

fastify.get('/hello/:name', async (request, reply) => {
  reply.type('text/html; charset=utf-8');
  return `<h1>Hello ${request.params.name}!</h1>`;
});

const port = Number(process.env.PORT || 8002);
fastify.listen({ host: '127.0.0.1', port }).then(
  () => console.log(`Fastify listening on http://127.0.0.1:${port}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
