import { integer, fraction, invalid, list, type Env } from '../config/env-values';
import { readSourceRoot } from '../config/source-root';
import { CAPTURE_KINDS, MIN_PROFILE_BYTES, PROFILER_DEFAULTS, type CaptureKind, type ProfilerConfig } from './profiler-config';
import { namePatternProblem } from './collect/secret-names';
import { readExplainConfig } from './explain/read-explain-config';

function readRedactNames(env: Env): readonly string[] {
  const names = list(env, 'PROFILER_REDACT', PROFILER_DEFAULTS.redact);
  for (const name of names) {
    const problem = namePatternProblem(name);
    if (problem !== null) throw invalid('PROFILER_REDACT', name, problem);
  }
  return Object.freeze([...names]);
}

function readCapture(env: Env): readonly CaptureKind[] {
  const raw = env['PROFILER_CAPTURE'];
  if (raw !== undefined && ['none', 'off', '0'].includes(raw.trim().toLowerCase())) return Object.freeze([]);
  const kinds = list(env, 'PROFILER_CAPTURE', PROFILER_DEFAULTS.capture);
  for (const kind of kinds) {
    if (!(CAPTURE_KINDS as readonly string[]).includes(kind)) throw invalid('PROFILER_CAPTURE', kind, `a comma-separated list of ${CAPTURE_KINDS.join(', ')}, or none`);
  }
  return Object.freeze([...new Set(kinds as readonly CaptureKind[])]);
}

function readIde(env: Env): string | null {
  const ide = env['PROFILER_IDE'] ?? env['LOUPE_IDE'];
  if (ide === undefined || ide.trim() === '') return null;
  if (!ide.includes('%f')) throw invalid('PROFILER_IDE', ide, 'a link template with %f (the file) and usually %l (the line), e.g. vscode://file/%f:%l');
  return ide.trim();
}

/**
 * The profiler's part of the configuration (PROFILER_*), validated; readConfig reads it.
 * `retention` gives the defaults of PROFILER_MAX_PROFILES and PROFILER_MAX_BYTES (lower for
 * profiles kept in memory, see MEMORY_RETENTION_DEFAULTS).
 */
export function readProfilerConfig(env: Env, retention: Pick<ProfilerConfig, 'maxProfiles' | 'maxBytes'> = PROFILER_DEFAULTS): ProfilerConfig {
  // A Redis string holds at most 512 MiB.
  const maxProfileBytes = integer(env, 'PROFILER_MAX_PROFILE_BYTES', PROFILER_DEFAULTS.maxProfileBytes, MIN_PROFILE_BYTES, 512 * 1024 * 1024);
  const maxBytes = integer(env, 'PROFILER_MAX_BYTES', retention.maxBytes, 1024 * 1024, Number.MAX_SAFE_INTEGER);
  // Each profile would otherwise push every other one out, itself included.
  if (maxBytes < maxProfileBytes) throw invalid('PROFILER_MAX_BYTES', String(maxBytes), `at least PROFILER_MAX_PROFILE_BYTES (${maxProfileBytes})`);
  return Object.freeze({
    lifetime: integer(env, 'PROFILER_LIFETIME', PROFILER_DEFAULTS.lifetime, 1, 365 * 86400),
    // Capped well below the 16.7 million tokens, so a token is reused only once its old profile is gone.
    maxProfiles: integer(env, 'PROFILER_MAX_PROFILES', retention.maxProfiles, 1, 10_000_000),
    maxProfileBytes,
    maxBytes,
    allowedIps: Object.freeze([...list(env, 'PROFILER_ALLOWED_IPS', PROFILER_DEFAULTS.allowedIps)]),
    allowedHosts: Object.freeze([...list(env, 'PROFILER_ALLOWED_HOSTS', PROFILER_DEFAULTS.allowedHosts)]),
    redact: readRedactNames(env),
    cookieAllowList: Object.freeze([...list(env, 'PROFILER_COOKIE_ALLOWLIST', PROFILER_DEFAULTS.cookieAllowList)]),
    sample: fraction(env, 'PROFILER_SAMPLE', PROFILER_DEFAULTS.sample),
    slowMs: integer(env, 'PROFILER_SLOW_MS', PROFILER_DEFAULTS.slowMs, 0, 3_600_000),
    capture: readCapture(env),
    maxEntries: integer(env, 'PROFILER_MAX_ENTRIES', PROFILER_DEFAULTS.maxEntries, 0, 100_000),
    slowCallMs: integer(env, 'PROFILER_SLOW_CALL_MS', PROFILER_DEFAULTS.slowCallMs, 0, 3_600_000),
    ide: readIde(env),
    sourceRoot: readSourceRoot(env),
    explain: readExplainConfig(env),
  });
}
