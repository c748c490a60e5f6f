import { EXPLAIN_DEFAULTS, type ExplainConfig } from './explain/explain-config';

/**
 * The schema version of the profiles this Loupe stores. Version 2 stores the timeline's spans as
 * columns (see StoredTimeline), which parseProfile reads back as version 1 stored them.
 */
export const PROFILE_VERSION = 2;

/** A schema version parseProfile reads: the one stored now, and version 1. */
export type ProfileVersion = 1 | typeof PROFILE_VERSION;

/** The schema versions parseProfile reads; it refuses any other with a message. */
export const READABLE_PROFILE_VERSIONS: readonly ProfileVersion[] = [1, PROFILE_VERSION];

/** The smallest PROFILER_MAX_PROFILE_BYTES: an envelope with every collector's entry left out must fit. */
export const MIN_PROFILE_BYTES = 4_096;

/** What an application does that the profiler captures without a line of its code (PROFILER_CAPTURE). */
export const CAPTURE_KINDS = ['http', 'redis', 'mysql2', 'pg', 'postgres'] as const;

/** One of CAPTURE_KINDS. */
export type CaptureKind = (typeof CAPTURE_KINDS)[number];

/**
 * The libraries whose calls each kind captures, as PROFILER_CAPTURE names them: `undici` is
 * Node's `fetch` and the undici package, `node:http` the http and https clients (axios and got
 * included). A kind of one library is named after it.
 */
export const CAPTURE_LIBRARIES = {
  http: ['undici', 'node:http'],
  redis: ['ioredis', 'node-redis'],
  mysql2: ['mysql2'],
  pg: ['pg'],
  postgres: ['postgres'],
} as const satisfies Readonly<Record<CaptureKind, readonly string[]>>;

/** A library whose calls PROFILER_CAPTURE turns on or off by name (`-undici`). */
export type CaptureLibrary = (typeof CAPTURE_LIBRARIES)[CaptureKind][number];

/** A name PROFILER_CAPTURE takes: a kind, a library (`fetch` is `undici`), either written `-name` to leave it out. */
export type CaptureName = CaptureKind | CaptureLibrary | 'fetch' | `-${CaptureKind | CaptureLibrary | 'fetch'}`;

/** The profiler's settings, read from the PROFILER_* variables of `config.env`, validated once and frozen. */
export interface ProfilerConfig {
  /** Seconds a stored profile lives. */
  readonly lifetime: number;
  /** Most profiles kept; older ones are trimmed. */
  readonly maxProfiles: number;
  /** Most bytes of one stored profile's JSON; longer values are cut to fit (see serializeWithinBudget). */
  readonly maxProfileBytes: number;
  /** Most bytes of all stored profiles and their search rows; the oldest are removed past it. */
  readonly maxBytes: number;
  /** Client address ranges (CIDR) allowed to read the profiler. */
  readonly allowedIps: readonly string[];
  /** Host names the profiler answers for besides IP addresses and localhost (PROFILER_ALLOWED_HOSTS). */
  readonly allowedHosts: readonly string[];
  /** Name patterns redacted besides the built-in ones (see SecretNames). */
  readonly redact: readonly string[];
  /** Cookies whose values profiles show; every other cookie's value is replaced. */
  readonly cookieAllowList: readonly string[];
  /** The share of requests profiled, 0 to 1 (see Sampler); errors and slow requests always are. */
  readonly sample: number;
  /** Requests at least this many milliseconds long are profiled whatever `sample` draws. */
  readonly slowMs: number;
  /** The application's I/O captured into its requests' profiles: outgoing HTTP, Redis, SQL through mysql2, pg and postgres.js. */
  readonly capture: readonly CaptureKind[];
  /** Libraries of the captured kinds whose calls are left out (PROFILER_CAPTURE's `-undici`, `-ioredis`…). */
  readonly captureOff: readonly CaptureLibrary[];
  /** Entries a request keeps of each kind (queries, calls, commands); the rest are counted. */
  readonly maxEntries: number;
  /** A query, call or command at least this many milliseconds long is flagged slow. */
  readonly slowCallMs: number;
  /**
   * Links a source position to an editor, as Symfony's `framework.ide`: `%f` is the file's absolute
   * path, `%l` the line (`vscode://file/%f:%l`); `null`: positions are shown without a link.
   */
  readonly ide: string | null;
  /**
   * The application's root (PROFILER_SOURCE_ROOT): the pages show lines of, and link to, source
   * files under it only (see SourceFiles); `null`: the working directory the profiler starts in.
   */
  readonly sourceRoot: string | null;
  /**
   * Where EXPLAIN of a stored query connects (PROFILER_EXPLAIN_DATABASE_URL) and how long it may
   * run (PROFILER_EXPLAIN_TIMEOUT_MS); no database: the Explain action says how to configure one.
   */
  readonly explain: ExplainConfig;
}

/**
 * The profiler's settings given in code (createLoupe's `profilerConfig`), every key optional: each
 * wins over its PROFILER_* variable, which wins over the default; checked by the same rules.
 */
export interface ProfilerConfigInput {
  /** PROFILER_LIFETIME: seconds a stored profile lives. */
  readonly lifetime?: number;
  /** PROFILER_MAX_PROFILES. */
  readonly maxProfiles?: number;
  /** PROFILER_MAX_PROFILE_BYTES. */
  readonly maxProfileBytes?: number;
  /** PROFILER_MAX_BYTES. */
  readonly maxBytes?: number;
  /** PROFILER_ALLOWED_IPS: client address ranges (CIDR) allowed to read the profiler. */
  readonly allowedIps?: readonly string[];
  /** PROFILER_ALLOWED_HOSTS. */
  readonly allowedHosts?: readonly string[];
  /** PROFILER_REDACT: name patterns profiles never keep the values of, besides the built-in ones. */
  readonly redact?: readonly string[];
  /** PROFILER_COOKIE_ALLOWLIST. */
  readonly cookieAllowList?: readonly string[];
  /** PROFILER_SAMPLE: the share of requests profiled, 0 to 1. */
  readonly sample?: number;
  /** PROFILER_SLOW_MS. */
  readonly slowMs?: number;
  /**
   * PROFILER_CAPTURE: kinds and libraries to capture, `-name` to leave one out (`['http', 'redis', '-undici']`);
   * only `-name`s leave those out of everything; `[]` captures nothing.
   */
  readonly capture?: readonly CaptureName[];
  /** PROFILER_MAX_ENTRIES. */
  readonly maxEntries?: number;
  /** PROFILER_SLOW_CALL_MS. */
  readonly slowCallMs?: number;
  /** PROFILER_IDE: an editor link template with `%f` and `%l`; `null` for none. */
  readonly ide?: string | null;
  /** PROFILER_SOURCE_ROOT; `null`: the working directory. */
  readonly sourceRoot?: string | null;
}

/** Where the profiler keeps its profiles: in Redis, shared by every process using it, or in this process's memory. */
export const PROFILE_STORES = ['redis', 'memory'] as const;
export type ProfileStoreKind = (typeof PROFILE_STORES)[number];

/**
 * The retention defaults of profiles kept in memory: they live in the application's heap, so
 * fewer than Redis keeps (PROFILER_MAX_PROFILES and PROFILER_MAX_BYTES still set them).
 */
export const MEMORY_RETENTION_DEFAULTS: Pick<ProfilerConfig, 'maxProfiles' | 'maxBytes'> = Object.freeze({
  maxProfiles: 1_000,
  maxBytes: 64 * 1024 * 1024,
});

/** The defaults readConfig applies; the CLI, which never writes profiles, needs no other. */
export const PROFILER_DEFAULTS: ProfilerConfig = Object.freeze({
  lifetime: 86400,
  maxProfiles: 50_000,
  maxProfileBytes: 64 * 1024,
  maxBytes: 256 * 1024 * 1024,
  allowedIps: Object.freeze(['127.0.0.0/8', '::1/128']),
  allowedHosts: Object.freeze([]),
  redact: Object.freeze([]),
  cookieAllowList: Object.freeze([]),
  sample: 1,
  slowMs: 500,
  capture: Object.freeze([...CAPTURE_KINDS]),
  captureOff: Object.freeze([]),
  maxEntries: 500,
  slowCallMs: 100,
  ide: null,
  sourceRoot: null,
  explain: EXPLAIN_DEFAULTS,
});

/** The libraries whose calls are captured: those of the kinds in `capture`, less `captureOff`. */
export function capturedLibraries(config: Pick<ProfilerConfig, 'capture' | 'captureOff'>): readonly CaptureLibrary[] {
  const off = new Set<CaptureLibrary>(config.captureOff);
  return config.capture.flatMap((kind) => CAPTURE_LIBRARIES[kind]).filter((library) => !off.has(library));
}
