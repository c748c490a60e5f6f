import test from 'ava';
import { PassThrough } from 'node:stream';
import { createLoupe, createLogger, LoupeResponse } from '../../../src';
import { deleteKeys, testConfig } from '../../helpers/test-server';

/*
 * With debug and REQUEST_CONTEXT=0 no captured call can be told to its request: the profiler says
 * so once when the application starts, instead of showing empty Database, HTTP and Redis panels.
 */

async function warningsOf(env: Readonly<Record<string, string>>): Promise<string[]> {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== '')));
  const config = testConfig(env);
  const app = createLoupe({
    routes: [{ name: 'ok', path: '/ok', methods: ['GET'], controller: { name: 'ok', handle: () => LoupeResponse.json({ ok: true }) } }],
    config,
    logger: createLogger({ level: 'warn', format: 'json' }, out),
  });
  await app.listen();
  await app.close();
  if (config.redis !== null) await deleteKeys(config.redis.url, config.redis.prefix);
  return lines.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg)).filter((msg) => msg.includes('REQUEST_CONTEXT'));
}

test('with debug and REQUEST_CONTEXT=0 the start says the application\'s I/O is not captured, and how to change it', async (t) => {
  const warnings = await warningsOf({ REQUEST_CONTEXT: '0' });
  t.is(warnings.length, 1, warnings.join('\n'));
  t.is(
    warnings[0],
    "REQUEST_CONTEXT=0: the application's SQL, HTTP calls and Redis commands are not captured (PROFILER_CAPTURE=http,redis,mysql2,pg,postgres); set REQUEST_CONTEXT=1, or PROFILER_CAPTURE=none to capture nothing and not be told.",
  );
});

test('nothing is said with the request context on, or with nothing to capture', async (t) => {
  t.deepEqual(await warningsOf({}), []);
  t.deepEqual(await warningsOf({ REQUEST_CONTEXT: '0', PROFILER_CAPTURE: 'none' }), []);
});
