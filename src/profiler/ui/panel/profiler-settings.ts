import { type ProfilerConfig } from '../../profiler-config';
import { type RedisConfig } from '../../../redis/redis-config';
import { html, type SafeHtml } from '../../../view/html';
import { hideRedisPassword } from '../../../redis/hide-redis-password';

/** The configuration the status page shows: where profiles go, how long they stay, what is captured. */
export interface ProfilerSettings {
  /** Where profiles are kept: Redis, or this process's memory. */
  readonly storage: 'redis' | 'memory';
  /** REDIS_URL, its password hidden; `null` in memory. */
  readonly redisUrl: string | null;
  /** REDIS_PREFIX; `null` in memory. */
  readonly prefix: string | null;
  readonly lifetime: number;
  readonly maxProfiles: number;
  readonly maxBytes: number;
  readonly maxProfileBytes: number;
  readonly sample: number;
  readonly slowMs: number;
  readonly capture: readonly string[];
  /** Libraries of the captured kinds left out (PROFILER_CAPTURE's `-name`). */
  readonly captureOff: readonly string[];
  readonly allowedIps: readonly string[];
}

/** What of the configuration a reader of the status page may see: no password, no secret. `redis` is `null` when profiles are kept in memory. */
export function profilerSettings(redis: RedisConfig | null, profiler: ProfilerConfig): ProfilerSettings {
  return {
    storage: redis === null ? 'memory' : 'redis',
    redisUrl: redis === null ? null : hideRedisPassword(redis.url),
    prefix: redis === null ? null : redis.prefix,
    lifetime: profiler.lifetime,
    maxProfiles: profiler.maxProfiles,
    maxBytes: profiler.maxBytes,
    maxProfileBytes: profiler.maxProfileBytes,
    sample: profiler.sample,
    slowMs: profiler.slowMs,
    capture: profiler.capture,
    captureOff: profiler.captureOff,
    allowedIps: profiler.allowedIps,
  };
}

const GROUPED = new Intl.NumberFormat('en-US');

/** The kinds captured, and the libraries of theirs left out: `http, redis (not undici)`. */
function capturedText(settings: ProfilerSettings): string {
  if (settings.capture.length === 0) return '(none)';
  const kinds = settings.capture.join(', ');
  return settings.captureOff.length === 0 ? kinds : `${kinds} (not ${settings.captureOff.join(', ')})`;
}

const DURATIONS: readonly (readonly [number, string])[] = [[86_400, 'day'], [3_600, 'hour'], [60, 'minute'], [1, 'second']];
const SIZES: readonly (readonly [number, string])[] = [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB'], [1, 'bytes']];

/** Seconds in the largest unit they are a whole number of: `86400` is `1 day`, `5400` is `90 minutes`. */
export function formatSeconds(seconds: number): string {
  const [size, unit] = DURATIONS.find(([size]) => seconds >= size && seconds % size === 0) ?? [1, 'second'];
  const count = seconds / size;
  return `${GROUPED.format(count)} ${unit}${count === 1 ? '' : 's'}`;
}

/** Bytes in the largest binary unit they are a whole number of: `268435456` is `256 MiB`. */
export function formatBytes(bytes: number): string {
  const [size, unit] = SIZES.find(([size]) => bytes >= size && bytes % size === 0) ?? [1, 'bytes'];
  return `${GROUPED.format(bytes / size)} ${unit}`;
}

/** One row: the setting, its value, and the variable that sets it. */
function row(label: string, value: string, variable: string, key: string): SafeHtml {
  return html`<tr data-setting="${key}"><th>${label}</th><td class="mono">${value}</td><td class="mono empty">${variable}</td></tr>\n`;
}

/** The configuration table of the status page, each row naming the variable that changes it. */
export function renderProfilerSettings(settings: ProfilerSettings): SafeHtml {
  return html`<h3>Configuration</h3>
<table class="settings">
<thead><tr><th>Setting</th><th>Value</th><th>Variable</th></tr></thead>
<tbody>
${
  settings.redisUrl === null || settings.prefix === null
    ? row('Profiles kept', 'in memory, this process only', 'REDIS_URL (unset)', 'storage')
    : html`${row('Redis', settings.redisUrl, 'REDIS_URL', 'redis-url')}${row('Key prefix', settings.prefix, 'REDIS_PREFIX', 'prefix')}`
}${row('Retention', formatSeconds(settings.lifetime), 'PROFILER_LIFETIME', 'lifetime')}${row('Most profiles', GROUPED.format(settings.maxProfiles), 'PROFILER_MAX_PROFILES', 'max-profiles')}${row('Most bytes in all', formatBytes(settings.maxBytes), 'PROFILER_MAX_BYTES', 'max-bytes')}${row('Most bytes per profile', formatBytes(settings.maxProfileBytes), 'PROFILER_MAX_PROFILE_BYTES', 'max-profile-bytes')}${row('Sampling', String(settings.sample), 'PROFILER_SAMPLE', 'sample')}${row('Always kept from', `${settings.slowMs} ms`, 'PROFILER_SLOW_MS', 'slow-ms')}${row('Captured I/O', capturedText(settings), 'PROFILER_CAPTURE', 'capture')}${row('Readable from', settings.allowedIps.join(', '), 'PROFILER_ALLOWED_IPS', 'allowed-ips')}</tbody>
</table>`;
}
