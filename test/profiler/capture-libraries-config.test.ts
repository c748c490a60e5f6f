import test from 'ava';
import { capturedLibraries } from '../../src/profiler/profiler-config';
import { readProfilerConfig } from '../../src/profiler/read-profiler-config';
import { profilerSettings, renderProfilerSettings } from '../../src/profiler/ui/panel/profiler-settings';

/* PROFILER_CAPTURE read as kinds and libraries, `-name` leaving one out; no I/O. */

const read = (capture: string) => readProfilerConfig({ PROFILER_CAPTURE: capture });

test('a library written -name is left out of its kind, which is still captured', (t) => {
  const config = read('http,redis,-undici');
  t.deepEqual(config.capture, ['http', 'redis']);
  t.deepEqual(config.captureOff, ['undici']);
  t.deepEqual(capturedLibraries(config), ['node:http', 'ioredis', 'node-redis']);
});

test('only left-out names start from everything: -ioredis,-postgres captures every other library', (t) => {
  const config = read('-ioredis, -postgres');
  t.deepEqual(config.capture, ['http', 'redis', 'mysql2', 'pg']);
  t.deepEqual(config.captureOff, ['ioredis']);
  t.deepEqual(capturedLibraries(config), ['undici', 'node:http', 'node-redis', 'mysql2', 'pg']);
});

test('a library named alone captures its kind with it only; fetch is undici', (t) => {
  const config = read('fetch,node-redis,pg');
  t.deepEqual(config.capture, ['http', 'redis', 'pg']);
  t.deepEqual(config.captureOff, ['node:http', 'ioredis']);
  t.deepEqual(capturedLibraries(config), ['undici', 'node-redis', 'pg']);
});

test('a kind left out whole is no longer captured, nor listed as left out', (t) => {
  const config = read('http,redis,-http');
  t.deepEqual(config.capture, ['redis']);
  t.deepEqual(config.captureOff, []);
  t.deepEqual(capturedLibraries(readProfilerConfig({})), ['undici', 'node:http', 'ioredis', 'node-redis', 'mysql2', 'pg', 'postgres']);
});

test('an unknown name, left out or not, is a configuration error that lists the kinds and libraries', (t) => {
  for (const value of ['http,-got', 'redis,mongo', '-', 'constructor']) {
    const error = t.throws(() => read(value), { code: 'LOUPE_ERR_CONFIG_INVALID' });
    t.regex(error?.message ?? '', /PROFILER_CAPTURE/);
    for (const name of ['http', 'redis', 'mysql2', 'pg', 'postgres', 'undici', 'node:http', 'ioredis', 'node-redis']) t.true(error?.message.includes(name), `${value}: ${name} is listed`);
  }
});

test('the status page shows the kinds captured and the libraries left out', (t) => {
  const settings = profilerSettings(null, read('http,redis,-undici,-ioredis'));
  t.deepEqual(settings.captureOff, ['undici', 'ioredis']);
  t.true(String(renderProfilerSettings(settings)).includes('http, redis (not undici, ioredis)'));
  t.true(String(renderProfilerSettings(profilerSettings(null, readProfilerConfig({})))).includes('http, redis, mysql2, pg, postgres<'));
});
