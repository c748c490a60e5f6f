import { invalidGiven, invalidSetting, pickFraction, pickInteger, pickList, type Setting } from '../config/config-values';
import { type Env } from '../config/env-values';
import { readSourceRoot } from '../config/source-root';
import { CAPTURE_KINDS, CAPTURE_LIBRARIES, MIN_PROFILE_BYTES, PROFILER_DEFAULTS, type CaptureLibrary, type ProfilerConfig, type ProfilerConfigInput } from './profiler-config';
import { namePatternProblem } from './collect/secret-names';
import { readExplainConfig } from './explain/read-explain-config';

/** The profiler's settings of ProfilerConfigInput: their paths in code and their variables. */
const SETTINGS = {
  lifetime: { path: 'profilerConfig.lifetime', variable: 'PROFILER_LIFETIME' },
  maxProfiles: { path: 'profilerConfig.maxProfiles', variable: 'PROFILER_MAX_PROFILES' },
  maxProfileBytes: { path: 'profilerConfig.maxProfileBytes', variable: 'PROFILER_MAX_PROFILE_BYTES' },
  maxBytes: { path: 'profilerConfig.maxBytes', variable: 'PROFILER_MAX_BYTES' },
  allowedIps: { path: 'profilerConfig.allowedIps', variable: 'PROFILER_ALLOWED_IPS' },
  allowedHosts: { path: 'profilerConfig.allowedHosts', variable: 'PROFILER_ALLOWED_HOSTS' },
  redact: { path: 'profilerConfig.redact', variable: 'PROFILER_REDACT' },
  cookieAllowList: { path: 'profilerConfig.cookieAllowList', variable: 'PROFILER_COOKIE_ALLOWLIST' },
  sample: { path: 'profilerConfig.sample', variable: 'PROFILER_SAMPLE' },
  slowMs: { path: 'profilerConfig.slowMs', variable: 'PROFILER_SLOW_MS' },
  capture: { path: 'profilerConfig.capture', variable: 'PROFILER_CAPTURE' },
  maxEntries: { path: 'profilerConfig.maxEntries', variable: 'PROFILER_MAX_ENTRIES' },
  slowCallMs: { path: 'profilerConfig.slowCallMs', variable: 'PROFILER_SLOW_CALL_MS' },
  ide: { path: 'profilerConfig.ide', variable: 'PROFILER_IDE' },
  sourceRoot: { path: 'profilerConfig.sourceRoot', variable: 'PROFILER_SOURCE_ROOT' },
} as const satisfies Record<keyof ProfilerConfigInput, Setting>;

function resolveRedactNames(given: unknown, env: Env): readonly string[] {
  const names = pickList(given, SETTINGS.redact, env, PROFILER_DEFAULTS.redact);
  for (const name of names) {
    const problem = namePatternProblem(name);
    if (problem !== null) throw invalidSetting(SETTINGS.redact, given !== undefined, name, problem);
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
 * PROFILER_CAPTURE (or `capture` in code): kinds and libraries to capture, and `-name` ones to
 * leave out; only `-name` ones leave those out of everything. Answers the kinds with a library
 * still on and the libraries of those kinds left out.
 */
function resolveCapture(given: unknown, env: Env): Pick<ProfilerConfig, 'capture' | 'captureOff'> {
  const raw = env['PROFILER_CAPTURE'];
  const nothing = { capture: Object.freeze([]), captureOff: Object.freeze([]) };
  if (given === undefined && raw !== undefined && ['none', 'off', '0'].includes(raw.trim().toLowerCase())) return nothing;
  // An empty array in code captures nothing; the variable says so with `none`.
  if (Array.isArray(given) && given.length === 0) return nothing;
  const on = new Set<CaptureLibrary>();
  const off = new Set<CaptureLibrary>();
  for (const name of pickList(given, SETTINGS.capture, env, PROFILER_DEFAULTS.capture)) {
    const leftOut = name.startsWith('-');
    const libraries = librariesNamed(leftOut ? name.slice(1).trim() : name);
    if (libraries === null) throw invalidSetting(SETTINGS.capture, given !== undefined, name, CAPTURE_EXPECTED);
    for (const library of libraries) (leftOut ? off : on).add(library);
  }
  const named = on.size === 0 ? LIBRARIES : [...on];
  const captured = new Set(named.filter((library) => !off.has(library)));
  const capture = CAPTURE_KINDS.filter((kind) => CAPTURE_LIBRARIES[kind].some((library) => captured.has(library)));
  const captureOff = capture.flatMap((kind) => CAPTURE_LIBRARIES[kind]).filter((library) => !captured.has(library));
  return { capture: Object.freeze(capture), captureOff: Object.freeze(captureOff) };
}

function resolveIde(given: unknown, env: Env): string | null {
  if (given === null) return null;
  if (given !== undefined && typeof given !== 'string') throw invalidGiven(SETTINGS.ide, given, 'a link template (a string) or null');
  const ide = given ?? env['PROFILER_IDE'] ?? env['LOUPE_IDE'];
  if (ide === undefined || ide.trim() === '') return null;
  if (!ide.includes('%f')) throw invalidSetting(SETTINGS.ide, given !== undefined, ide, 'a link template with %f (the file) and usually %l (the line), e.g. vscode://file/%f:%l');
  return ide.trim();
}

function resolveSourceRoot(given: unknown, env: Env): string | null {
  if (given === undefined) return readSourceRoot(env);
  if (given !== null && typeof given !== 'string') throw invalidGiven(SETTINGS.sourceRoot, given, 'a directory (a string) or null');
  return given === null || given.trim() === '' ? null : given.trim();
}

/**
 * The profiler's own configuration: each setting given in code (`given`, the profiler plugin's
 * option), else its PROFILER_* variable, else the default; validated. `retention` gives the
 * defaults of the number and bytes of profiles kept (lower in memory, see MEMORY_RETENTION_DEFAULTS).
 * EXPLAIN's databases are read from the environment alone (their URLs hold passwords).
 */
export function resolveProfilerConfig(given: ProfilerConfigInput, env: Env, retention: Pick<ProfilerConfig, 'maxProfiles' | 'maxBytes'> = PROFILER_DEFAULTS): ProfilerConfig {
  // A Redis string holds at most 512 MiB.
  const maxProfileBytes = pickInteger(given.maxProfileBytes, SETTINGS.maxProfileBytes, env, PROFILER_DEFAULTS.maxProfileBytes, MIN_PROFILE_BYTES, 512 * 1024 * 1024);
  const maxBytes = pickInteger(given.maxBytes, SETTINGS.maxBytes, env, retention.maxBytes, 1024 * 1024, Number.MAX_SAFE_INTEGER);
  // Each profile would otherwise push every other one out, itself included.
  if (maxBytes < maxProfileBytes) throw invalidSetting(SETTINGS.maxBytes, given.maxBytes !== undefined, maxBytes, `at least PROFILER_MAX_PROFILE_BYTES (${maxProfileBytes})`);
  return Object.freeze({
    lifetime: pickInteger(given.lifetime, SETTINGS.lifetime, env, PROFILER_DEFAULTS.lifetime, 1, 365 * 86400),
    // Capped well below the 16.7 million tokens, so a token is reused only once its old profile is gone.
    maxProfiles: pickInteger(given.maxProfiles, SETTINGS.maxProfiles, env, retention.maxProfiles, 1, 10_000_000),
    maxProfileBytes,
    maxBytes,
    allowedIps: Object.freeze([...pickList(given.allowedIps, SETTINGS.allowedIps, env, PROFILER_DEFAULTS.allowedIps)]),
    allowedHosts: Object.freeze([...pickList(given.allowedHosts, SETTINGS.allowedHosts, env, PROFILER_DEFAULTS.allowedHosts)]),
    redact: resolveRedactNames(given.redact, env),
    cookieAllowList: Object.freeze([...pickList(given.cookieAllowList, SETTINGS.cookieAllowList, env, PROFILER_DEFAULTS.cookieAllowList)]),
    sample: pickFraction(given.sample, SETTINGS.sample, env, PROFILER_DEFAULTS.sample),
    slowMs: pickInteger(given.slowMs, SETTINGS.slowMs, env, PROFILER_DEFAULTS.slowMs, 0, 3_600_000),
    ...resolveCapture(given.capture, env),
    maxEntries: pickInteger(given.maxEntries, SETTINGS.maxEntries, env, PROFILER_DEFAULTS.maxEntries, 0, 100_000),
    slowCallMs: pickInteger(given.slowCallMs, SETTINGS.slowCallMs, env, PROFILER_DEFAULTS.slowCallMs, 0, 3_600_000),
    ide: resolveIde(given.ide, env),
    sourceRoot: resolveSourceRoot(given.sourceRoot, env),
    explain: readExplainConfig(env),
  });
}

/**
 * The profiler's part of the configuration (PROFILER_*) from the environment alone, validated.
 * `retention` gives the defaults of PROFILER_MAX_PROFILES and PROFILER_MAX_BYTES (lower for
 * profiles kept in memory, see MEMORY_RETENTION_DEFAULTS).
 */
export function readProfilerConfig(env: Env, retention: Pick<ProfilerConfig, 'maxProfiles' | 'maxBytes'> = PROFILER_DEFAULTS): ProfilerConfig {
  return resolveProfilerConfig({}, env, retention);
}
