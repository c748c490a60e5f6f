'use strict';
// The peer most Node applications run: Express 5 with the same route as fastify.js and its default 404.
const express = require('express');

const app = express();

app.get('/hello/:name', (req, res) => {
  res.type('text/html; charset=utf-8').send(`<h1>Hello ${req.params.name}!</h1>`);
});

const port = Number(process.env.PORT || 8003);
app.listen(port, '127.0.0.1', (error) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  console.log(`Express 5 listening on http://127.0.0.1:${port}`);
});
