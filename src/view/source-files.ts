import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The endings of the files a page shows lines of: the application's JavaScript and TypeScript. */
const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);

/**
 * Which files the profiler's pages may show lines of or link to an editor: the application's own
 * source. A stack frame names a file, and a frame's text can be forged by whatever an error's
 * message repeats of a request (`"\n    at x (/etc/passwd:1:1)"`): a path is taken only when it is
 * under the application's root, outside `node_modules`, with a source ending — and, for reading,
 * when its real path (every symbolic link resolved) is too.
 */
export interface SourceFiles {
  /** The application's root, absolute (PROFILER_SOURCE_ROOT, else the working directory). */
  readonly root: string;
  /** The absolute path `file` (a path or a `file://` URL) names when it may be the application's source by its name alone, else `null`. */
  pathOf(file: string): string | null;
  /** The real path of `file` when it is the application's source once every link is resolved, else `null` (also when it does not exist). */
  resolve(file: string): Promise<string | null>;
  /**
   * The lines of `file` when it is the application's source (see resolve) and at most
   * MAX_FILE_BYTES, else `null`. A file read is kept for FRESH_MS (an edit shows within a
   * second), so that a page rendered on every request — the debug error page of a 404 under
   * load — does not read the same files from disk each time.
   */
  lines(file: string): Promise<readonly string[] | null>;
}

/** Larger files are bundles or generated code, not worth reading for a few lines. */
const MAX_FILE_BYTES = 1024 * 1024;
/** How long a file's lines are served without looking at the file again. */
const FRESH_MS = 1_000;
/** Files whose lines are kept at most; the least recently read go first. */
const MAX_KEPT_FILES = 256;

function absolutePath(file: string): string | null {
  if (file.startsWith('file://')) {
    try {
      return fileURLToPath(file);
    } catch {
      return null;
    }
  }
  return path.isAbsolute(file) ? path.normalize(file) : null;
}

/** Whether `file` (absolute, normalized) is inside `root`, outside `node_modules`, with a source ending. */
function isSourceUnder(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  if (relative.split(path.sep).includes('node_modules')) return false;
  return SOURCE_EXTENSIONS.has(path.extname(file).toLowerCase());
}

/** The application's source files under `root` (resolved against the working directory). */
export function createSourceFiles(root: string): SourceFiles {
  const absoluteRoot = path.resolve(root);
  // The root may itself be reached through a link (/tmp on macOS, a deployment's `current`).
  let realRoot: Promise<string | null> | undefined;
  const pathOf = (file: string): string | null => {
    const absolute = absolutePath(file);
    return absolute !== null && isSourceUnder(absoluteRoot, absolute) ? absolute : null;
  };
  const resolve = async (file: string): Promise<string | null> => {
    const absolute = pathOf(file);
    if (absolute === null) return null;
    realRoot ??= realpath(absoluteRoot).catch(() => null);
    const [root, real] = await Promise.all([realRoot, realpath(absolute).catch(() => null)]);
    return root !== null && real !== null && isSourceUnder(root, real) ? real : null;
  };
  const read = async (file: string): Promise<readonly string[] | null> => {
    try {
      const real = await resolve(file);
      if (real === null) return null;
      const info = await stat(real);
      if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
      return (await readFile(real, 'utf8')).split(/\r?\n/);
    } catch {
      // Deleted, moved or unreadable: the position is shown without its source.
      return null;
    }
  };
  const kept = new Map<string, { readonly at: number; readonly lines: Promise<readonly string[] | null> }>();
  return {
    root: absoluteRoot,
    pathOf,
    resolve,
    lines: (file) => {
      const now = Date.now();
      const entry = kept.get(file);
      if (entry !== undefined && now - entry.at < FRESH_MS) return entry.lines;
      const lines = read(file);
      kept.delete(file);
      kept.set(file, { at: now, lines });
      if (kept.size > MAX_KEPT_FILES) kept.delete(kept.keys().next().value ?? '');
      return lines;
    },
  };
}
