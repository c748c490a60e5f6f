import { setFlagsFromString } from 'node:v8';
import { loadNativeUws, type Uws } from './load-uws';

/*
 * Everything Loupe changes in the process it serves from, each with why. Only the process's
 * owner applies it: serve() and a Loupe's listen() (through loadTunedUws), never an import of
 * loupe-kernel, createLoupe(), inject() or an adapter, which an application or a test runner
 * loads into a process that is not Loupe's. Nothing else in Loupe writes a V8 flag or an
 * environment variable; `Error.stackTraceLimit` and `Error.prepareStackTrace` are set only for
 * the length of one synchronous read of call sites, and put back before it returns
 * (capture-origin.ts, read-stack.ts).
 */

/** One change to the process: applied by Loupe, kept as the process was started, or come too late. */
export interface ProcessTuning {
  /** As the listening line names it, e.g. `V8 --no-allocation-site-pretenuring`. */
  readonly name: string;
  /**
   * `applied`: Loupe made the change; `kept`: the process was started with a setting of its own
   * (a node flag, the environment), which Loupe leaves alone; `missed`: too late to make (uWS
   * was loaded before Loupe's listen()); `pending`: not done yet (nothing listened).
   */
  readonly state: 'applied' | 'kept' | 'missed' | 'pending';
}

/** What this process got, as loadTunedUws left it; `pending` until then. */
export interface ProcessTuningRecord {
  readonly pretenuring: ProcessTuning;
  readonly headLimit: ProcessTuning;
}

const PRETENURING = 'V8 --no-allocation-site-pretenuring';

/**
 * The largest request head (request line and headers) uWS accepts, in bytes. The package's
 * binaries for Node 22 and later come from a uWS that reads UWS_HTTP_MAX_HEADERS_SIZE once, when
 * its native module loads (a static of HttpParser.h), and answers 431 past it, 4 KiB by default:
 * an 8 KB URL would be refused there and served under Node 20, whose older build has no such knob
 * and takes heads up to about 125 KiB. 128 KiB gives every Node version the same limit.
 */
const MAX_HEAD_SIZE = 128 * 1024;
const HEAD_LIMIT_ENV = 'UWS_HTTP_MAX_HEADERS_SIZE';
const HEAD_LIMIT = `uWS request heads up to ${MAX_HEAD_SIZE / 1024} KiB`;

/** Node 22's ABI: the first whose uWS binary reads UWS_HTTP_MAX_HEADERS_SIZE (4 KiB without it). */
const FIRST_ABI_WITH_HEAD_LIMIT = 127;

let record: ProcessTuningRecord = {
  pretenuring: { name: PRETENURING, state: 'pending' },
  headLimit: { name: HEAD_LIMIT, state: 'pending' },
};

/** What has been applied to this process so far (the listening line, the tests). */
export function processTuning(): ProcessTuningRecord {
  return record;
}

/**
 * Whether node was started with its own say on the flag (`--allocation-site-pretenuring` or
 * `--no-…`; NODE_OPTIONS takes no such V8 flag, so the command line is the only place).
 */
function flagGiven(execArgv: readonly string[]): boolean {
  return execArgv.some((arg) => /^--(no-)?allocation[-_]site[-_]pretenuring$/.test(arg));
}

/**
 * Turns off V8's allocation-site pretenuring (`--no-allocation-site-pretenuring`).
 *
 * Why: a request's objects die young, but while an application loads and warms up, literals of
 * the request path (XState's snapshots and action arguments among them) survive scavenges, and
 * V8 then decides to allocate those literals in the old generation from that point on. Each such
 * object, dead as soon as its request is over, still holds pointers into the young generation,
 * and the scavenger treats old-to-new pointers as roots: the whole request that object points to
 * survives, is promoted, and points on to the next one, until a full mark-compact. Measured with
 * `--trace-gc-nvp` on the kernel alone in a process that has loaded ioredis: about 1.5 MB survived
 * each scavenge instead of 8 kB, and a routed prod request cost three times the CPU. Without
 * pretenuring every object starts young, so only what is live at a scavenge survives it.
 *
 * Process-wide and harmless to correctness (pretenuring is a heuristic; V8 still promotes what
 * lives long); Node keeps V8's flags writable after start, so this applies from the next
 * allocation on. A process started with either form of the flag keeps its own.
 */
function disablePretenuring(): ProcessTuning {
  if (flagGiven(process.execArgv)) return { name: PRETENURING, state: 'kept' };
  setFlagsFromString('--no-allocation-site-pretenuring');
  return { name: PRETENURING, state: 'applied' };
}

/** Whether a uWebSockets.js binary is loaded in this process already (by Loupe or anyone else). */
function uwsBinaryLoaded(): boolean {
  return Object.keys(require.cache).some((file) => /(^|[\\/])uws_[^\\/]*\.node$/.test(file));
}

/**
 * Loads uWS with a 128 KiB request-head limit (see MAX_HEAD_SIZE): UWS_HTTP_MAX_HEADERS_SIZE is
 * set while its native module loads, then put back as it was, so that the environment this
 * process and its children see does not change. A limit the environment gives is kept.
 */
function loadWithHeadLimit(load: () => Uws): { uws: Uws; tuning: ProcessTuning } {
  const given = process.env[HEAD_LIMIT_ENV];
  if (given !== undefined && given !== '') return { uws: load(), tuning: { name: `uWS request heads up to ${given} bytes`, state: 'kept' } };
  if (record.headLimit.state === 'applied') return { uws: load(), tuning: record.headLimit };
  if (uwsBinaryLoaded()) return { uws: load(), tuning: { name: HEAD_LIMIT, state: 'missed' } };
  process.env[HEAD_LIMIT_ENV] = String(MAX_HEAD_SIZE);
  try {
    return { uws: load(), tuning: { name: HEAD_LIMIT, state: 'applied' } };
  } finally {
    if (given === undefined) delete process.env[HEAD_LIMIT_ENV];
    else process.env[HEAD_LIMIT_ENV] = given;
  }
}

/**
 * The warning for a uWS another module loaded before Loupe's listen() without a head limit in
 * the environment: its binary for Node 22 and later then refuses heads over 4 KiB. Null where
 * that is not so (Node 20's binary has no such limit).
 */
export function headLimitWarning(tuning: ProcessTuning, abi: string = process.versions.modules): string | null {
  if (tuning.state !== 'missed' || Number(abi) < FIRST_ABI_WITH_HEAD_LIMIT) return null;
  return (
    'uWebSockets.js was loaded before Loupe could give it a request-head limit: uWS answers 431 to a request line and headers over 4 KiB ' +
    `(its default). Start the process with ${HEAD_LIMIT_ENV}=${MAX_HEAD_SIZE}, or let Loupe load uWS first (serve() or listen() before any other import of it).`
  );
}

/**
 * The tunings that need no server: V8's pretenuring off. For a process owner that runs requests
 * without listening (a benchmark of inject()); loadTunedUws applies it too. Applied once.
 */
export function tuneProcess(): ProcessTuningRecord {
  if (record.pretenuring.state === 'pending') record = { ...record, pretenuring: disablePretenuring() };
  return record;
}

/**
 * Tunes the process for serving (see each tuning) and answers uWS with its native binary. Called
 * by the process's owner as it starts to listen; the first call applies, later ones answer the
 * same record. `warn` is told when a tuning came too late to help; `load`: another loader (tests).
 */
export function loadTunedUws(warn: (message: string) => void, load: () => Uws = loadNativeUws): Uws {
  tuneProcess();
  // A load that throws (no binary for this system) leaves the head limit pending.
  const { uws, tuning } = loadWithHeadLimit(load);
  record = { ...record, headLimit: tuning };
  const warning = headLimitWarning(tuning);
  if (warning !== null) warn(warning);
  return uws;
}

/** `process tuned: V8 --no-allocation-site-pretenuring, uWS request heads up to 128 KiB` (what Loupe applied), or null for nothing. */
export function describeProcessTuning(tuning: ProcessTuningRecord = record): string | null {
  const applied = [tuning.pretenuring, tuning.headLimit].filter((each) => each.state === 'applied');
  return applied.length === 0 ? null : `process tuned: ${applied.map((each) => each.name).join(', ')}`;
}
