'use strict';
// Express 5 as in express.js with Loupe's profiler (loupe-kernel/express, from this checkout's
// build) as its first middleware, profiling every request and storing each profile in Redis.
const path = require('node:path');
const express = require('express');
const { loupe } = require(path.join(__dirname, '..', '..', 'dist', 'src', 'profiler', 'adapters', 'express'));

async function main() {
  const app = express();
  const profiler = loupe({ enabled: true });
  app.use(profiler);
  app.get('/hello/:name', (req, res) => {
    res.type('text/html; charset=utf-8').send(`<h1>Hello ${req.params.name}!</h1>`);
  });
  // Started before listening, so that the first measured request is not the one that connects Redis.
  await profiler.start();
  const port = Number(process.env.PORT || 8006);
  const server = app.listen(port, '127.0.0.1', (error) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    console.log(`Express 5 + Loupe profiler listening on http://127.0.0.1:${port}`);
  });
  process.on('SIGTERM', () => {
    server.close();
    profiler.close().finally(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
