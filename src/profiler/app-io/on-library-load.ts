import Module from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A CommonJS module as Node's loader holds it. */
interface LoadedModule {
  readonly filename: string;
  readonly loaded: boolean;
  readonly exports: unknown;
}

type Load = (this: LoadedModule, ...args: unknown[]) => unknown;

/** What a patch is given of a file: its exports once it ran; answers how to undo the patch. */
export type LibraryPatch = (exports: object) => () => void;

interface Watcher {
  readonly packageName: string;
  /** The file inside the package, with the platform's separators and a leading one: `/lib/client.js`. */
  readonly suffix: string;
  readonly patch: LibraryPatch;
  /** Exports already patched: a copy is patched once, however it was met (scan or hook). */
  readonly patched: WeakSet<object>;
  readonly undo: (() => void)[];
}

/*
 * The loader is the process's: one hook serves every watcher, so that watchers stopped in any
 * order never put back a `load` that another one's hook replaced.
 */
const watchers = new Set<Watcher>();
/** Package directory → its package.json `name` (null: none), for the files a watcher's suffix matches. */
const packageNames = new Map<string, string | null>();
const loader = Module.prototype as unknown as { load: Load };
let hook: { readonly original: Load; readonly wrapper: Load } | null = null;

function nameOfPackage(directory: string): string | null {
  let name = packageNames.get(directory);
  if (name !== undefined) return name;
  try {
    const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as { name?: unknown };
    name = typeof manifest.name === 'string' ? manifest.name : null;
  } catch {
    name = null;
  }
  packageNames.set(directory, name);
  return name;
}

function notice(watcher: Watcher, module: LoadedModule): void {
  const { filename, exports } = module;
  if (typeof filename !== 'string' || !filename.endsWith(watcher.suffix)) return;
  // The package is named by its own package.json, not by its directory: an npm alias
  // (`"pg8": "npm:pg@8"`) or a copy nested under another package is the same library.
  if (nameOfPackage(filename.slice(0, -watcher.suffix.length)) !== watcher.packageName) return;
  if ((typeof exports !== 'object' && typeof exports !== 'function') || exports === null || watcher.patched.has(exports)) return;
  watcher.patched.add(exports);
  try {
    watcher.undo.push(watcher.patch(exports));
  } catch (error) {
    // The application's require must never fail because the profiler could not patch a library
    // (a frozen prototype, say): it runs unprofiled and says why.
    process.emitWarning(`Loupe cannot capture calls of ${watcher.packageName} loaded from ${filename}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Wraps `Module.prototype.load`, which Node calls once for each CommonJS file it runs, with its
 * real path, whether `require` or an ES module's `import` of a CommonJS package asked for it
 * (Node's ESM loader loads those through `Module._load` too). A `require` hook
 * (require-in-the-middle's `Module.prototype.require`) misses the second: an `import` never calls
 * it. Files an ES module loader hook supplies the source of (`module.register`) are not seen.
 */
function installHook(): void {
  if (hook !== null) return;
  const original = loader.load;
  const wrapper: Load = function (this: LoadedModule, ...args) {
    const result = original.apply(this, args);
    for (const watcher of watchers) notice(watcher, this);
    return result;
  };
  loader.load = wrapper;
  hook = { original, wrapper };
}

function removeHook(): void {
  // Another hook was put over ours: ours stays in its chain, idle while no watcher is left.
  if (hook === null || loader.load !== hook.wrapper) return;
  loader.load = hook.original;
  hook = null;
  packageNames.clear();
}

/**
 * Calls `patch` with the exports of `internalFile` (`lib/client.js`) of every copy of the
 * CommonJS package `packageName` (`pg`) that the process loads: the copies loaded already (found
 * in `require.cache`) and each one loaded later, wherever it lies (nested under another
 * package, under an alias) and whoever loads it. Each copy is patched once. Answers how to stop:
 * every patch is undone and the loader hook removed with the last watcher.
 */
export function onLibraryLoad(packageName: string, internalFile: string, patch: LibraryPatch): () => void {
  const watcher: Watcher = { packageName, suffix: path.sep + path.normalize(internalFile), patch, patched: new WeakSet(), undo: [] };
  watchers.add(watcher);
  installHook();
  for (const module of Object.values(require.cache)) {
    // A module still loading is noticed by the hook once it has run.
    if (module?.loaded === true) notice(watcher, module);
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    watchers.delete(watcher);
    for (const undo of watcher.undo.reverse()) undo();
    if (watchers.size === 0) removeHook();
  };
}
