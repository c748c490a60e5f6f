import { realpath } from 'node:fs/promises';
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
}

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
  return {
    root: absoluteRoot,
    pathOf,
    resolve: async (file) => {
      const absolute = pathOf(file);
      if (absolute === null) return null;
      realRoot ??= realpath(absoluteRoot).catch(() => null);
      const [root, real] = await Promise.all([realRoot, realpath(absolute).catch(() => null)]);
      return root !== null && real !== null && isSourceUnder(root, real) ? real : null;
    },
  };
}
