'use strict';
// Where Fastify + OpenTelemetry sends its spans: accepts POST /v1/traces (OTLP/HTTP, JSON) and
// answers 200 with an empty ExportTraceServiceResponse. GET /stats says how many spans came in,
// so the bench can tell that every request's spans were exported. Its CPU is read apart from the
// server's, as Redis's is for Loupe debug.
const http = require('node:http');

const stats = { exports: 0, spans: 0, bytes: 0 };
const SPAN_ID = Buffer.from('"spanId"');

/** Spans in a JSON export: one `"spanId"` key each (`"parentSpanId"` does not match). */
function countSpans(body) {
  let count = 0;
  for (let at = body.indexOf(SPAN_ID); at !== -1; at = body.indexOf(SPAN_ID, at + SPAN_ID.length)) count++;
  return count;
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/v1/traces') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      stats.exports++;
      stats.bytes += body.length;
      stats.spans += countSpans(body);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
    return;
  }
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  res.writeHead(404).end();
});

const port = Number(process.env.PORT || 4318);
server.listen(port, '127.0.0.1', () => console.log(`OTLP sink listening on http://127.0.0.1:${port}/v1/traces`));
