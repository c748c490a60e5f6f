'use strict';
// The peer for debug mode: Fastify 5 as in fastify.js with OpenTelemetry tracing every request —
// NodeTracerProvider, BatchSpanProcessor, the OTLP/HTTP exporter sending to the sink at
// OTLP_SINK_URL, and the http and Fastify instrumentations, registered before fastify is required
// (they patch it as it loads).
const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { registerInstrumentations } = require('@opentelemetry/instrumentation');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
const { FastifyOtelInstrumentation } = require('@fastify/otel');

const url = process.env.OTLP_SINK_URL;
if (!url) {
  console.error('Fastify + OpenTelemetry: OTLP_SINK_URL is not set (the bench starts a sink and passes it).');
  process.exit(1);
}
const provider = new NodeTracerProvider({
  spanProcessors: [
    // The default queue (2048 spans) overflows under full load and drops spans silently; Loupe
    // debug profiles every request, so the peer exports every request's spans too.
    new BatchSpanProcessor(new OTLPTraceExporter({ url }), { maxQueueSize: 65_536, maxExportBatchSize: 512 }),
  ],
});
provider.register();
registerInstrumentations({
  tracerProvider: provider,
  instrumentations: [new HttpInstrumentation(), new FastifyOtelInstrumentation({ registerOnInitialization: true })],
});

const fastify = require('fastify')({ logger: false });

fastify.get('/hello/:name', async (request, reply) => {
  reply.type('text/html; charset=utf-8');
  return `<h1>Hello ${request.params.name}!</h1>`;
});

const port = Number(process.env.PORT || 8004);
fastify.listen({ host: '127.0.0.1', port }).then(
  () => console.log(`Fastify + OpenTelemetry listening on http://127.0.0.1:${port}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

// Spans still queued are exported before the process ends.
process.on('SIGTERM', () => {
  provider.shutdown().finally(() => process.exit(0));
});
