import test from 'ava';
import { createLogger, createLoupe, LoupeResponse } from '../../src';
import { httpRequest } from '../helpers/http-client';
import { parseServerTiming } from '../helpers/server-timing';
import { deleteAppKeys, startTestServer, testConfig } from '../helpers/test-server';

const PROD = { APP_ENV: 'prod', APP_DEBUG: '0', APP_SECRET: 'server-timing-test' };

test('prod: no Server-Timing header unless SERVER_TIMING=1 asks for it', async (t) => {
  const server = await startTestServer(PROD);
  try {
    for (const path of ['/hello/ada', '/slow?ms=1', '/boom', '/config.yaml']) {
      const res = await httpRequest(server.port, { path });
      t.is(res.headers['server-timing'], undefined, path);
    }
  } finally {
    await server.close();
  }
});

test('prod with SERVER_TIMING=1: the header is there, well formed, without the profiler', async (t) => {
  const server = await startTestServer({ ...PROD, SERVER_TIMING: '1' });
  try {
    const res = await httpRequest(server.port, { path: '/slow?ms=10' });
    t.is(res.status, 200);
    t.is(res.headers['x-debug-token'], undefined, 'the profiler stays off');
    const metrics = parseServerTiming(String(res.headers['server-timing']));
    const controller = metrics.find((metric) => metric.name === 'controller');
    t.true((controller?.dur ?? 0) >= 9, JSON.stringify(metrics));
    t.is(metrics.at(-1)?.name, 'total');
    const boom = await httpRequest(server.port, { path: '/boom' });
    t.is(boom.status, 500);
    t.true(parseServerTiming(String(boom.headers['server-timing'])).some((metric) => metric.name === 'sub_request'));
  } finally {
    await server.close();
  }
});

test('debug with SERVER_TIMING=0: no header, the profiler records its timeline all the same', async (t) => {
  const server = await startTestServer({ SERVER_TIMING: '0' });
  try {
    const res = await httpRequest(server.port, { path: '/hello/ada' });
    t.is(res.headers['server-timing'], undefined);
    t.regex(String(res.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  } finally {
    await server.close();
  }
});

test('a controller name with quotes, backslashes and non-ASCII is a well-formed quoted desc', async (t) => {
  const name = 'legacy "quoted" \\ päge';
  const app = createLoupe({
    routes: [{ name: 'odd', path: '/odd', methods: ['GET'], controller: { name, handle: () => new LoupeResponse('odd') } }],
    config: testConfig({ SERVER_TIMING: '1' }),
    logger: createLogger({ level: 'silent', format: 'json' }),
  });
  try {
    const { port } = await app.listen();
    const metrics = parseServerTiming(String((await httpRequest(port, { path: '/odd' })).headers['server-timing']));
    t.is(metrics.find((metric) => metric.name === 'controller')?.desc, 'legacy "quoted" \\ p?ge', 'quotes and backslashes survive; what is not visible ASCII is replaced');
  } finally {
    await app.close();
    await deleteAppKeys(app.config);
  }
});
