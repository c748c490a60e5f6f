import { type StackFrame } from './parse-stack';

type PrepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) => unknown;

/** A stack's frame lines as the formatter wrote them, from `\n    at ` on, and the frames parsed from them. */
interface FormattedFrames {
  readonly text: string;
  frames?: readonly StackFrame[];
}

/**
 * The name of Node's own formatter (`Error.prepareStackTrace` from Node 20 on: source maps when
 * they are on). Its text is the error's header, then lines that depend on the frames alone; a
 * formatter of the application's may write anything, so its stacks are never cached.
 */
export const NODE_FORMAT = 'ErrorPrepareStackTrace';

const MAX_CACHED = 512;

/**
 * Formatted frames by the raw frames they were formatted from (the whole stack: Node names a
 * frame after its caller's position too). Source-mapping a stack costs far more than V8's own
 * text of its frames, and an application throws from a handful of places: the same raw frames
 * are formatted the same way every time. Bounded: the oldest entry goes first.
 */
const formattedByRaw = new Map<string, FormattedFrames>();

/**
 * Whether source maps are on, V8's own text of each frame (what `error.stack` shows without them:
 * function, file, line, column, `async`, `new`, eval origin), and where the frame's function
 * starts, which tells two scripts loaded under one name apart.
 */
function rawKey(sites: readonly NodeJS.CallSite[]): string | null {
  // Node's formatter maps only while source maps are on, which a process may switch at any time.
  let key = process.sourceMapsEnabled ? 'mapped\n' : 'raw\n';
  for (const site of sites) {
    const text = String(site);
    if (text.includes('\n')) return null;
    key += `${text}\t${site.getEnclosingLineNumber?.() ?? ''}:${site.getEnclosingColumnNumber?.() ?? ''}\n`;
  }
  return key;
}

/** Prototypes of errors by whether they are Node's own (see headerOf). */
const nodeErrorPrototypes = new WeakMap<object, boolean>();

function hasNodeErrorMark(target: object): boolean {
  return Object.getOwnPropertySymbols(target).some((symbol) => symbol.description === 'kIsNodeError');
}

function isNodeError(error: Error): boolean {
  if (hasNodeErrorMark(error)) return true;
  const prototype: unknown = Object.getPrototypeOf(error);
  if (typeof prototype !== 'object' || prototype === null) return false;
  let known = nodeErrorPrototypes.get(prototype);
  if (known === undefined) {
    known = false;
    for (let link: unknown = prototype; typeof link === 'object' && link !== null; link = Object.getPrototypeOf(link)) known ||= hasNodeErrorMark(link);
    nodeErrorPrototypes.set(prototype, known);
  }
  return known;
}

/**
 * The first line(s) Node's formatter writes for `error`: `Error.prototype.toString`. `null` for
 * Node's own errors (`Name [CODE]: message`, marked by a symbol Node keeps to itself) and for
 * what cannot be read (a hostile Proxy): their stacks are not cached.
 */
function headerOf(error: Error): string | null {
  try {
    return isNodeError(error) ? null : Error.prototype.toString.call(error);
  } catch {
    return null;
  }
}

/** Remembers the formatted frames of `sites` when the formatter's text is the error's own header followed by them. */
function remember(key: string, header: string | null, formatted: unknown): FormattedFrames | null {
  if (header === null || typeof formatted !== 'string' || !formatted.startsWith(`${header}\n    at `)) return null;
  if (formattedByRaw.size >= MAX_CACHED) {
    const oldest = formattedByRaw.keys().next();
    if (oldest.done !== true) formattedByRaw.delete(oldest.value);
  }
  const frames: FormattedFrames = { text: formatted.slice(header.length) };
  formattedByRaw.set(key, frames);
  return frames;
}

/** `error.stack`, formatted through the cache of formatted frames; with the cache entry it used when the stack is exactly the error's header and that entry's lines. */
function readStack(error: object, format: PrepareStackTrace): { stack: unknown; frames: FormattedFrames | null } {
  let frames: FormattedFrames | null = null;
  Error.prepareStackTrace = (thrown, sites) => {
    const key = rawKey(sites);
    const header = sites.length > 0 && key !== null ? headerOf(thrown) : null;
    const known = key === null ? undefined : formattedByRaw.get(key);
    if (header !== null && known !== undefined) {
      if (thrown === error) frames = known;
      return header + known.text;
    }
    const formatted = format.call(Error, thrown, sites);
    const made = key === null ? null : remember(key, header, formatted);
    if (thrown === error) frames = made;
    return formatted;
  };
  try {
    return { stack: (error as { stack?: unknown }).stack, frames };
  } finally {
    Error.prepareStackTrace = format;
  }
}

/** `error.message` when it is a string that is not empty, else `null`; never throws. */
function messageOf(error: object): string | null {
  try {
    const message: unknown = (error as { message?: unknown }).message;
    return typeof message === 'string' && message !== '' ? message : null;
  } catch {
    return null;
  }
}

/**
 * The part of a stack's text after the error's message. A message often repeats what a request
 * sent, and a line of it can read as a frame (`"\n    at x (/etc/passwd:1:1)"`): the frames are
 * only what the formatter wrote after it. The whole text when the message is not in it (a
 * formatter of the application's own).
 */
function afterMessage(error: object, stack: string): string {
  const message = messageOf(error);
  const at = message === null ? -1 : stack.indexOf(message);
  return message === null || at === -1 ? stack : stack.slice(at + message.length);
}

/**
 * The frames of `error.stack`, as `parse` makes them of its text, with the same text any reader
 * of `error.stack` gets. A stack not yet formatted goes through Node's formatter (see
 * NODE_FORMAT) only the first time its raw frames are seen; later errors with the
 * same raw frames get the cached lines after their own header, and their frames parsed once.
 * Frames are parsed from the lines the formatter wrote for V8's call sites, never from the
 * error's message: from the cached lines, or else from the text after the message. A stack
 * already formatted, or made by a getter, is read that way too. `parse` must depend on its text
 * alone. Throws what reading the property throws.
 */
export function stackTrace(error: object, parse: (stack: string) => StackFrame[]): readonly StackFrame[] {
  const format = Error.prepareStackTrace as PrepareStackTrace | undefined;
  const { stack, frames } = format?.name === NODE_FORMAT ? readStack(error, format) : { stack: (error as { stack?: unknown }).stack, frames: null };
  if (typeof stack !== 'string') return [];
  if (frames === null || !stack.endsWith(frames.text)) return parse(afterMessage(error, stack));
  frames.frames ??= parse(frames.text);
  return frames.frames;
}
