import test from 'ava';
import { readProfilerConfig } from '../../../../src/profiler/read-profiler-config';
import { httpRequest } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

const servers: TestServer[] = [];

test.after.always(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function start(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer(env);
  servers.push(server);
  return server;
}

test('with debug off the profiler routes do not exist: /_profiler/latest is a plain 404', async (t) => {
  const server = await start({ APP_DEBUG: '0' });
  t.is(server.profiler, null);
  for (const path of ['/_profiler/latest', '/_profiler/', '/_profiler/search', '/_profiler/status']) {
    const res = await httpRequest(server.port, { path, headers: { Accept: 'application/json' } });
    t.is(res.status, 404, path);
    t.is(res.headers['x-debug-token'], undefined, path);
    // Without debug the error says nothing but its status.
    t.is(JSON.parse(res.body).detail, 'Not Found', path);
  }
});

test('a client outside PROFILER_ALLOWED_IPS gets a 403 naming the variable; the application still answers it', async (t) => {
  const server = await start({ PROFILER_ALLOWED_IPS: '10.0.0.0/8' });
  for (const path of ['/_profiler/latest', '/_profiler/', '/_profiler/search?method=GET', '/_profiler/status', '/_profiler/abcdef']) {
    const res = await httpRequest(server.port, { path, headers: { Accept: 'application/json' } });
    t.is(res.status, 403, path);
    // Refusals are profiler pages too: not profiled, even through their error sub-request.
    t.is(res.headers['x-debug-token'], undefined, path);
    const detail = String(JSON.parse(res.body).detail);
    t.regex(detail, /PROFILER_ALLOWED_IPS/, path);
    t.true(detail.includes('"127.0.0.1"'), path);
  }
  const html = await httpRequest(server.port, { path: '/_profiler/latest' });
  t.is(html.status, 403);
  t.true(html.body.includes('outside PROFILER_ALLOWED_IPS'));
  t.is((await httpRequest(server.port, { path: '/hello/anna' })).status, 200);
  await server.profiler?.writer.whenIdle();
  t.deepEqual(await server.profiler?.storage.find({ url: '/_profiler' }), []);
});

test('the default ranges let loopback in', async (t) => {
  const server = await start({ PROFILER_ALLOWED_IPS: '' });
  t.deepEqual(readProfilerConfig(server.config.env).allowedIps, ['127.0.0.0/8', '::1/128']);
  t.is((await httpRequest(server.port, { path: '/_profiler/status' })).status, 200);
});

test('an invalid PROFILER_ALLOWED_IPS stops the server from starting', async (t) => {
  await t.throwsAsync(() => start({ PROFILER_ALLOWED_IPS: '127.0.0.1/99' }), { message: /^Invalid PROFILER_ALLOWED_IPS: Invalid IP range "127\.0\.0\.1\/99"/ });
});

