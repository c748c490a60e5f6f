'use strict';
// The ceiling: uWebSockets.js answering every request with a 404 text, nothing else.
const uws = require('uWebSockets.js');

const port = Number(process.env.PORT || 8001);
uws
  .App()
  .any('/*', (res) => {
    res.cork(() => {
      res.writeStatus('404 Not Found').writeHeader('Content-Type', 'text/plain; charset=utf-8').end('Not Found');
    });
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) {
      console.error(`raw uWS: cannot listen on ${port}`);
      process.exit(1);
    }
    console.log(`raw uWS listening on http://127.0.0.1:${port}`);
  });
