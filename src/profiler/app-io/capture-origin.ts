import { findSourceMap, type SourceMap } from 'node:module';
import { basename, dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStack } from '../../error-handler/parse-stack';
import { NODE_FORMAT } from '../../error-handler/read-stack';
import { currentRequest, type CurrentRequest } from '../../kernel/request-context';

/**
 * How an origin was found: `stack`, a frame of the synchronous stack; `async`, an `await` of the
 * application's that the call's async functions lead back to (V8's `async …` frames); `request`,
 * no frame of the application's at all, so the request's own position stands for it.
 */
export type OriginFound = 'stack' | 'async' | 'request';

/**
 * Where a captured call was made: the application's file and line (source-mapped where a map is
 * known), or, found `request`, the request's controller (else its route) with file `''` and line 0.
 */
export interface CallOrigin {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly function: string;
  readonly found: OriginFound;
  /**
   * Found `request` only: the package of the outermost library frame, which sent the call
   * (`drizzle-orm`, `knex`): a statement of its own (BEGIN, a connection's SET) or a query it
   * ran from a microtask, where a thenable's `then` keeps none of the application's frames.
   */
  readonly library?: string;
}

/** Frames of the application's kept of one call's stack, its origin's included (Symfony's Doctrine panel keeps a backtrace per query). */
export const CALL_STACK_FRAMES = 8;

/** Loupe's own directory, compiled (`dist/`) or not: its frames are never the origin of an application's call. */
const BUILT = resolve(__dirname, '..', '..', '..');
const ROOT = basename(BUILT) === 'dist' ? dirname(BUILT) : BUILT;
const OWN_DIRS = [ROOT, resolve(ROOT, 'dist')].flatMap((root) => [resolve(root, 'src') + sep, resolve(root, 'machines') + sep]);
const NODE_MODULES = `${sep}node_modules${sep}`;
/**
 * Code an ORM generates into the application's tree, a library all the same: Prisma's client
 * (`node_modules/.prisma/client`, or `output = "../generated/prisma"` since Prisma 7, whose
 * runtime would otherwise be the origin of every query).
 */
const GENERATED_CLIENTS = [`${sep}.prisma${sep}`, `${sep}generated${sep}prisma${sep}`];

/**
 * Frames looked at: enough to get out of a driver, a pool and an ORM's layers. Each costs about
 * a microsecond to capture; fetch's own frames (undici inside Node) need about twice as many.
 */
export const STACK_DEPTH = 24;

type PrepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) => unknown;

/** The formatter set while the stack is captured: the call sites themselves, unformatted. */
const RETURN_SITES: PrepareStackTrace = (_error, sites) => sites;

/** What a loader's formatter is given to format one frame: made once, its own stack is never read. */
const FORMAT_ERROR = new Error('origin');

function classifyFile(file: string): boolean {
  if (!(file.startsWith('/') || file.startsWith('file://') || /^[A-Za-z]:\\/.test(file))) return false;
  if (file.includes(NODE_MODULES) || GENERATED_CLIENTS.some((dir) => file.includes(dir))) return false;
  return !OWN_DIRS.some((dir) => file.startsWith(dir));
}

/** Files already classified: a stack names the same few files again and again, V8 hands out the same strings. */
const applicationFiles = new Map<string, boolean>();
/** Enough for every file of an application; a process that loads more (generated code) starts over. */
const MAX_CLASSIFIED_FILES = 10_000;

function isApplicationFile(file: string): boolean {
  let known = applicationFiles.get(file);
  if (known === undefined) {
    if (applicationFiles.size >= MAX_CLASSIFIED_FILES) applicationFiles.clear();
    known = classifyFile(file);
    applicationFiles.set(file, known);
  }
  return known;
}

function pathOf(file: string): string {
  return file.startsWith('file://') ? fileURLToPath(file) : file;
}

/** Source maps by file, kept: a frame's file is loaded, so its map (or none) is known for good. */
const sourceMaps = new Map<string, SourceMap | undefined>();
/** Enough for every file of an application; a process that loads more (generated code) starts over. */
const MAX_SOURCE_MAPS = 10_000;

/** findSourceMap, remembered: Node 20 turns the path into a URL on every call (about 4 µs). */
function sourceMapOf(file: string): SourceMap | undefined {
  if (sourceMaps.has(file)) return sourceMaps.get(file);
  if (sourceMaps.size >= MAX_SOURCE_MAPS) sourceMaps.clear();
  const map = findSourceMap(file);
  sourceMaps.set(file, map);
  return map;
}

/**
 * The position of one frame in the application's source. Only this frame is mapped: formatting
 * the whole stack would source-map forty frames (over 100 µs) to keep one.
 */
function mapSite(site: NodeJS.CallSite, file: string, format: PrepareStackTrace | undefined): CallOrigin {
  const found = site.isAsync() ? 'async' : 'stack';
  const line = site.getLineNumber() ?? 0;
  const column = site.getColumnNumber() ?? 0;
  // A loop's calls share their frames: each position is mapped once. A new object every time, as
  // an origin gets its own callers (see callerFrames).
  const key = positionKey(line, column);
  let mapped = key === undefined ? undefined : mappedSites.get(file, key);
  if (mapped === undefined) {
    mapped = mapPosition(site, file, format, site.getFunctionName() ?? site.getMethodName() ?? '', found, line, column);
    if (key !== undefined) mappedSites.set(file, key, mapped);
  }
  return { file: mapped.file, line: mapped.line, column: mapped.column, function: mapped.function, found };
}

type MappedPosition = Readonly<Pick<CallOrigin, 'file' | 'line' | 'column' | 'function'>>;

/** Enough for every line of an application that makes calls; a process that makes more starts over. */
const MAX_POSITIONS = 10_000;

/** A line and column as one number, cheaper to look up than a string made of them; `undefined` past a column a minified file may reach, never kept. */
function positionKey(line: number, column: number): number | undefined {
  return column < 2 ** 24 && line < 2 ** 28 ? line * 2 ** 24 + column : undefined;
}

/** Something known of source positions, by file, then by line and column (see positionKey); MAX_POSITIONS of them at most. */
class PositionTable<T> {
  readonly #files = new Map<string, Map<number, T>>();
  #count = 0;

  get(file: string, key: number): T | undefined {
    return this.#files.get(file)?.get(key);
  }

  set(file: string, key: number, value: T): void {
    let positions = this.#files.get(file);
    if (positions?.has(key) !== true) {
      if (this.#count >= MAX_POSITIONS) {
        this.#files.clear();
        this.#count = 0;
        positions = undefined;
      }
      this.#count += 1;
    }
    if (positions === undefined) {
      positions = new Map();
      this.#files.set(file, positions);
    }
    positions.set(key, value);
  }
}

/** Positions mapped lately: a source-mapped position never changes while its file is loaded, nor does the function it is in. */
const mappedSites = new PositionTable<MappedPosition>();

function mapPosition(site: NodeJS.CallSite, file: string, format: PrepareStackTrace | undefined, fn: string, found: 'async' | 'stack', line: number, column: number): CallOrigin {
  // Node's own formatter maps through findSourceMap, which is cheaper to ask directly.
  if (format !== undefined && format.name !== NODE_FORMAT) {
    // A formatter installed by a loader (ts-node's source-map-support) knows the maps Node does not.
    const [frame] = parseStack(String(format(FORMAT_ERROR, [site])), 1);
    // An async frame is written `async name` (`async` alone when anonymous): the name alone is the function's.
    if (frame !== undefined && frame.file !== '') return { file: pathOf(frame.file), line: frame.line, column: frame.column, function: frame.function.replace(/^async(?: |$)/, '') || fn, found };
  }
  const entry = sourceMapOf(file)?.findEntry(line - 1, column - 1);
  if (entry !== undefined && 'originalSource' in entry && typeof entry.originalSource === 'string') {
    return { file: pathOf(entry.originalSource), line: entry.originalLine + 1, column: entry.originalColumn + 1, function: fn, found };
  }
  return { file: pathOf(file), line, column, function: fn, found };
}

/** The package a library's file belongs to (`drizzle-orm`, `@prisma/client`); `undefined` for any other file. */
function packageOf(file: string): string | undefined {
  // Both generated clients are Prisma's.
  if (GENERATED_CLIENTS.some((dir) => file.includes(dir))) return 'prisma';
  const at = file.lastIndexOf(NODE_MODULES);
  if (at === -1) return undefined;
  const [scope = '', name = ''] = file.slice(at + NODE_MODULES.length).split(sep, 2);
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

/**
 * The request's position, for a call with no frame of the application's: its controller (else
 * its route), and the outermost library on the stack, the one the application (or nothing) called.
 */
function requestOrigin(sites: readonly NodeJS.CallSite[], request: CurrentRequest | undefined): CallOrigin {
  const attributes = request?.request.attributes;
  const position = attributes?.get('_controller') ?? attributes?.get('_route');
  const fn = typeof position === 'string' ? position : '';
  for (let index = sites.length - 1; index >= 0; index--) {
    const file = sites[index]?.getFileName();
    const library = file === undefined || file === null ? undefined : packageOf(file);
    if (library !== undefined) return { file: '', line: 0, column: 0, function: fn, found: 'request', library };
  }
  return { file: '', line: 0, column: 0, function: fn, found: 'request' };
}

/**
 * The frames above each origin found `stack` or `async`, a slice of the array V8 made anyway:
 * nothing of them is mapped or filtered until the profile is collected (see callerFrames). Kept
 * beside the origin, not in it: an origin stays plain data wherever it is compared or serialized.
 */
const callersOf = new WeakMap<CallOrigin, readonly NodeJS.CallSite[]>();

/**
 * Frames looked at past the deepest application frame met lately: enough for a call's own stack
 * (CALL_STACK_FRAMES) when its frames follow each other.
 */
const CALLER_FRAMES_LOOKED = CALL_STACK_FRAMES;

/**
 * How deep the application's frame lay lately in the stacks of one kind of call (one library's
 * channel or wrapper), and whether the last one had any of the application's frames above it.
 * V8 charges for every frame it walks, about a microsecond for a frame of optimized code, so a
 * capture looks that deep and CALLER_FRAMES_LOOKED more rather than its whole depth; one that
 * finds no application frame there looks again, at the whole depth. After an origin with nothing
 * of the application's above it, the next capture stops at the origin's depth (see loneOrigins).
 */
export class StackReach {
  deepest = -1;
  /** Whether the last origin found had no frame of the application's above it. */
  alone = false;

  /** Frames to look at first, `depth` at most. */
  limit(depth: number): number {
    if (this.deepest < 0) return depth;
    return Math.min(depth, this.deepest + 1 + (this.alone ? 0 : CALLER_FRAMES_LOOKED));
  }

  /** Frames to look at for an origin `index` deep and the frames above it. */
  limitAbove(index: number, depth: number): number {
    return Math.min(depth, Math.max(this.deepest, index) + 1 + CALLER_FRAMES_LOOKED);
  }
}

/**
 * An origin whose frames above held nothing of the application's the last time they were looked
 * at (a route's handler, a controller, which only the framework calls) is taken alone, without
 * walking past it: the frame below a function an `await` resumed is the microtask queue's, whose
 * walk costs V8 some 6 µs (measured with bench/micro/app-io.js), for frames nobody keeps. Its
 * frames above are looked at again every REVISIT_LONE calls, in case the application calls its
 * function from elsewhere now, and always when they held the application's.
 */
const REVISIT_LONE = 32;
/** By origin: calls taken alone since the frames above were last looked at, or ABOVE. */
const loneOrigins = new PositionTable<number>();
/** The frames above the origin held some of the application's. */
const ABOVE = -1;

/** Whether a call from `origin` may be taken alone this time; counts it. */
function takeAlone(origin: CallOrigin): boolean {
  const key = positionKey(origin.line, origin.column);
  if (key === undefined) return false;
  const calls = loneOrigins.get(origin.file, key);
  if (calls === undefined || calls === ABOVE || calls >= REVISIT_LONE) return false;
  loneOrigins.set(origin.file, key, calls + 1);
  return true;
}

/** Remembers whether the frames above `origin` (looked at now) held any of the application's. */
function learnAbove(origin: CallOrigin, callers: readonly NodeJS.CallSite[]): boolean {
  const alone = !callers.some((site) => {
    const file = site.getFileName();
    return file !== undefined && file !== null && isApplicationFile(file);
  });
  const key = positionKey(origin.line, origin.column);
  if (key !== undefined) loneOrigins.set(origin.file, key, alone ? 0 : ABOVE);
  return alone;
}

/**
 * The call sites of the current stack below originFromStack, `depth` of them at most. V8 hands
 * them out only through `Error.prepareStackTrace` and `Error.stackTraceLimit`, which are the
 * process's: both are set for the one capture and put back before anything else runs (no code of
 * the application's or of another library's runs in between, and no error is made), so that no
 * other code can see them changed.
 */
function callSites(depth: number): NodeJS.CallSite[] {
  const format = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: unknown } = {};
  Error.prepareStackTrace = RETURN_SITES;
  Error.stackTraceLimit = depth;
  try {
    Error.captureStackTrace(holder, originFromStack);
    return holder.stack as NodeJS.CallSite[];
  } finally {
    // Deleted rather than set to undefined when there was none: Node's own formatting (source maps) runs then.
    if (format === undefined) delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
    else Error.prepareStackTrace = format;
    Error.stackTraceLimit = limit;
  }
}

/** The first of `sites` that is the application's once mapped, and where it lies; `undefined` if none is. */
function applicationFrame(sites: readonly NodeJS.CallSite[], format: PrepareStackTrace | undefined): { readonly origin: CallOrigin; readonly index: number } | undefined {
  for (let index = 0; index < sites.length; index++) {
    const site = sites[index];
    const file = site?.getFileName();
    if (site === undefined || file === undefined || file === null || !isApplicationFile(file)) continue;
    const origin = mapSite(site, file, format);
    if (isApplicationFile(origin.file)) return { origin, index };
  }
  return undefined;
}

function originFromStack(depth: number, reach: StackReach): CallOrigin {
  const format = Error.prepareStackTrace as PrepareStackTrace | undefined;
  const limit = reach.limit(depth);
  let sites = callSites(limit);
  let found = applicationFrame(sites, format);
  // Deeper than lately (another path to the same library, an ORM's layers): the whole depth.
  if (found === undefined && sites.length === limit && limit < depth) {
    sites = callSites(depth);
    found = applicationFrame(sites, format);
  }
  if (found === undefined) return requestOrigin(sites, currentRequest());
  const { origin, index } = found;
  if (index > reach.deepest) reach.deepest = index;
  // The stack went on past what was looked at, and not far enough for the frames above the origin.
  if (sites.length === limit && limit < reach.limitAbove(index, depth)) {
    if (takeAlone(origin)) {
      reach.alone = true;
      return origin;
    }
    sites = callSites(reach.limitAbove(index, depth));
  }
  const callers = sites.slice(index + 1);
  reach.alone = learnAbove(origin, callers);
  if (callers.length > 0) callersOf.set(origin, callers);
  return origin;
}

/** The origin of the call a pool runs for the application once it has a connection (see withOrigin). */
let inherited: CallOrigin | null = null;

/**
 * The first frame of the current stack that is the application's: outside `node_modules`, Node's
 * own modules and Loupe, as `file:line` (Symfony's Doctrine panel and Telescope show the same).
 * Taken synchronously where the call starts, since later events of it run in the socket's stack.
 * V8's `async …` frames count (found `async`): an ORM's client awaits its own steps before the
 * driver runs. When the whole stack is libraries (a library's own statement, or a thenable's
 * `then` run from a microtask), the request's position (see requestOrigin): never nothing.
 * `reach`, one per kind of call, learns how deep its application frames lie (see StackReach);
 * without one, the whole `depth` is looked at.
 */
export function captureOrigin(depth = STACK_DEPTH, reach = new StackReach()): CallOrigin {
  return inherited ?? originFromStack(depth, reach);
}

/**
 * Runs `fn` (a pool's callback, which then sends the query) with `origin` as the origin of the
 * calls it starts: by then the stack holds the pool's frames only, the application's are gone.
 */
export function withOrigin<T>(origin: CallOrigin | null, fn: () => T): T {
  const outer = inherited;
  inherited = origin;
  try {
    return fn();
  } finally {
    inherited = outer;
  }
}

/**
 * The application's frames above a call's origin (outside `node_modules` and Loupe), source-mapped,
 * at most CALL_STACK_FRAMES - 1: the origin and these make the call's own stack. Mapped here, when
 * the profile is collected, so that capturing a call costs the mapping of its origin only.
 */
export function callerFrames(origin: CallOrigin): CallOrigin[] {
  const frames: CallOrigin[] = [];
  const callers = callersOf.get(origin);
  if (callers === undefined) return frames;
  const format = Error.prepareStackTrace as PrepareStackTrace | undefined;
  for (const site of callers) {
    if (frames.length >= CALL_STACK_FRAMES - 1) break;
    const file = site.getFileName();
    if (file === undefined || file === null || !isApplicationFile(file)) continue;
    const frame = mapSite(site, file, format);
    if (isApplicationFile(frame.file)) frames.push(frame);
  }
  return frames;
}
