import { resolve, sep } from 'node:path';
import { parseStack, type StackFrame } from '../../error-handler/parse-stack';

/** Where a captured call was made: the application's file and line (source-mapped where Node maps stacks). */
export interface CallOrigin {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly function: string;
}

/** Loupe's own code, compiled or not: its frames are never the origin of an application's call. */
const OWN = resolve(__dirname, '..', '..');
const OWN_DIRS = [OWN + sep, resolve(OWN, '..', 'machines') + sep];
const NODE_MODULES = `${sep}node_modules${sep}`;

/** Frames looked at: enough to get out of a driver, a pool and an ORM's layers. */
const STACK_DEPTH = 40;

function isApplicationFrame(frame: StackFrame): boolean {
  const { file } = frame;
  if (file === '' || file.startsWith('node:') || !(file.startsWith('/') || file.startsWith('file://') || /^[A-Za-z]:\\/.test(file))) return false;
  if (file.includes(NODE_MODULES)) return false;
  return !OWN_DIRS.some((dir) => file.startsWith(dir));
}

/**
 * The first frame of the current stack that is the application's: outside `node_modules`, Node's
 * own modules and Loupe, as `file:line` (Symfony's Doctrine panel and Telescope show the same).
 * Taken synchronously where the call starts, since later events of it run in the socket's stack.
 * `null` when the whole stack is libraries (a query a library makes on its own).
 */
export function captureOrigin(): CallOrigin | null {
  return inherited ?? originFromStack();
}

/** The origin of the call a pool runs for the application once it has a connection (see withOrigin). */
let inherited: CallOrigin | null = null;

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

function originFromStack(): CallOrigin | null {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_DEPTH;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, originFromStack);
  Error.stackTraceLimit = limit;
  const frame = parseStack(holder.stack ?? '', STACK_DEPTH).find(isApplicationFrame);
  if (frame === undefined) return null;
  const file = frame.file.startsWith('file://') ? decodeURIComponent(new URL(frame.file).pathname) : frame.file;
  return { file, line: frame.line, column: frame.column, function: frame.function };
}
