import { integer, fraction, invalid, list, type Env } from '../config/env-values';
import { readSourceRoot } from '../config/source-root';
import { CAPTURE_KINDS, CAPTURE_LIBRARIES, MIN_PROFILE_BYTES, PROFILER_DEFAULTS, type CaptureLibrary, type ProfilerConfig } from './profiler-config';
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

/** Other names of a library that PROFILER_CAPTURE takes: Node's `fetch` is undici. */
const LIBRARY_ALIASES: ReadonlyMap<string, CaptureLibrary> = new Map([['fetch', 'undici']]);
const LIBRARIES: readonly CaptureLibrary[] = CAPTURE_KINDS.flatMap((kind) => CAPTURE_LIBRARIES[kind]);
const CAPTURE_EXPECTED = `a comma-separated list of kinds (${CAPTURE_KINDS.join(', ')}) and libraries (${LIBRARIES.join(', ')}; fetch is undici), a library or kind written -name to leave it out (http,redis,-undici), or none`;

/** The libraries `name` stands for (a kind: all of its own), or `null` for an unknown name. */
function librariesNamed(name: string): readonly CaptureLibrary[] | null {
  const kind = CAPTURE_KINDS.find((candidate) => candidate === name);
  if (kind !== undefined) return CAPTURE_LIBRARIES[kind];
  const library = LIBRARY_ALIASES.get(name) ?? LIBRARIES.find((candidate) => candidate === name);
  return library === undefined ? null : [library];
}

/**
 * PROFILER_CAPTURE: kinds and libraries to capture, and `-name` ones to leave out; only `-name`
 * ones leave those out of everything. Answers the kinds with a library still on and the
 * libraries of those kinds left out.
 */
function readCapture(env: Env): Pick<ProfilerConfig, 'capture' | 'captureOff'> {
  const raw = env['PROFILER_CAPTURE'];
  if (raw !== undefined && ['none', 'off', '0'].includes(raw.trim().toLowerCase())) return { capture: Object.freeze([]), captureOff: Object.freeze([]) };
  const on = new Set<CaptureLibrary>();
  const off = new Set<CaptureLibrary>();
  for (const name of list(env, 'PROFILER_CAPTURE', PROFILER_DEFAULTS.capture)) {
    const leftOut = name.startsWith('-');
    const libraries = librariesNamed(leftOut ? name.slice(1).trim() : name);
    if (libraries === null) throw invalid('PROFILER_CAPTURE', name, CAPTURE_EXPECTED);
    for (const library of libraries) (leftOut ? off : on).add(library);
  }
  const named = on.size === 0 ? LIBRARIES : [...on];
  const captured = new Set(named.filter((library) => !off.has(library)));
  const capture = CAPTURE_KINDS.filter((kind) => CAPTURE_LIBRARIES[kind].some((library) => captured.has(library)));
  const captureOff = capture.flatMap((kind) => CAPTURE_LIBRARIES[kind]).filter((library) => !captured.has(library));
  return { capture: Object.freeze(capture), captureOff: Object.freeze(captureOff) };
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
    ...readCapture(env),
    maxEntries: integer(env, 'PROFILER_MAX_ENTRIES', PROFILER_DEFAULTS.maxEntries, 0, 100_000),
    slowCallMs: integer(env, 'PROFILER_SLOW_CALL_MS', PROFILER_DEFAULTS.slowCallMs, 0, 3_600_000),
    ide: readIde(env),
    sourceRoot: readSourceRoot(env),
    explain: readExplainConfig(env),
  });
}
