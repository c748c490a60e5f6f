import test from 'ava';
import Redis from 'ioredis';
import { readProfilerConfig } from '../../src/profiler/read-profiler-config';
import { readRedisConfig } from '../../src/redis/redis-config';
import { LoupeError } from '../../src/errors/loupe-error';
import { defaultCollectors } from '../../src/profiler/collect/collectors/default-collectors';
import { DEFAULT_PANELS } from '../../src/profiler/ui/panel/panel-registry';
import { createProfiler } from '../../src/profiler/profiler';

test('the profiler refuses a PROFILER_MAX_BYTES whose share per key group cannot hold one profile, before it connects', async (t) => {
  // Never connected: the check comes first.
  const reader = new Redis({ lazyConnect: true });
  const env = { PROFILER_MAX_BYTES: String(1024 * 1024), PROFILER_REDIS_GROUPS: '32' };
  const config = { redis: readRedisConfig(env), profiler: readProfilerConfig(env) };
  const parts = { collectors: defaultCollectors({ secretCookies: new Set() }), panels: DEFAULT_PANELS };
  const error = await t.throwsAsync(createProfiler(config, reader, parts, () => undefined), { instanceOf: LoupeError });
  t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
  t.is(error?.message, 'Invalid PROFILER_MAX_BYTES "1048576": expected at least PROFILER_MAX_PROFILE_BYTES × PROFILER_REDIS_GROUPS (65536 × 32): each group keeps its share.');
  t.is(reader.status, 'wait');
});
