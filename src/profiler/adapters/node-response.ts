import { type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { type ProfiledRequest } from '../core/profiled-request';
import { insertToolbar } from './insert-toolbar';
import { markResponse, type MarkOptions, type ResponseHeaderAccess } from './mark-response';

/** Largest HTML page held to put the toolbar in; a larger one is sent as it comes, without toolbar. */
const MAX_HELD_BYTES = 4 << 20;

type WriteHead = ServerResponse['writeHead'];
type Callback = (error?: Error | null) => void;

/** One header of the response as text, wherever it was set (`setHeader`, or the headers given to `writeHead`). */
function headerOf(res: ServerResponse, given: OutgoingHttpHeaders | undefined, name: string): string | undefined {
  const value = given?.[name] ?? given?.[Object.keys(given).find((key) => key.toLowerCase() === name) ?? ''] ?? res.getHeader(name);
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The headers object of a `writeHead(status, [reason], [headers])` call, when one was given as an object. */
function givenHeaders(args: readonly unknown[]): OutgoingHttpHeaders | undefined {
  const last = args.at(-1);
  return typeof last === 'object' && last !== null && !Array.isArray(last) ? (last as OutgoingHttpHeaders) : undefined;
}

/** The response's headers, wherever they are set: `setHeader`, or the headers object given to `writeHead`, which wins. */
function headerAccess(res: ServerResponse, given: OutgoingHttpHeaders | undefined): ResponseHeaderAccess {
  const removeGiven = (name: string): void => {
    if (given !== undefined) for (const key of Object.keys(given)) if (key.toLowerCase() === name) delete given[key];
  };
  return {
    get: (name) => headerOf(res, given, name.toLowerCase()),
    set: (name, value) => {
      removeGiven(name.toLowerCase());
      res.setHeader(name, value);
    },
    remove: (name) => {
      removeGiven(name.toLowerCase());
      res.removeHeader(name);
    },
  };
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/**
 * Makes a Node.js response carry its request's profile: `Server-Timing` (unless off),
 * `X-Debug-Token` and `X-Debug-Token-Link` set as its headers go, and the web debug toolbar put before the last `</body>` of an HTML page
 * (the page held until it ends, at most MAX_HELD_BYTES; `Content-Length` corrected, `ETag` removed;
 * a compressed, redirected, attachment or larger page passes untouched). Works on the instance's
 * own methods, so any framework on node:http (Express, Koa, NestJS) writes through it.
 */
export function instrumentResponse(res: ServerResponse, request: ProfiledRequest, options: MarkOptions): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let decided = false;
  /** The page being held for the toolbar: the writeHead arguments, the chunks, their size and the snippet. */
  let held: { args: unknown[]; chunks: Buffer[]; size: number; snippet: string } | null = null;

  const decide = (args: unknown[]): unknown[] => {
    decided = true;
    const status = typeof args[0] === 'number' ? args[0] : res.statusCode;
    request.enter('response');
    const snippet = markResponse(request, status, headerAccess(res, givenHeaders(args)), options);
    if (snippet !== null) held = { args, chunks: [], size: 0, snippet };
    return args;
  };
  /** Sends what was held as it came, without the toolbar (too large for it). */
  const release = (): void => {
    if (held === null) return;
    const { args, chunks } = held;
    held = null;
    writeHead(...args);
    for (const chunk of chunks) write(chunk);
  };

  const patchedWriteHead = (...args: unknown[]): ServerResponse => {
    if (decided) return held === null ? writeHead(...args) : res;
    const kept = decide(args);
    return held === null ? writeHead(...kept) : res;
  };
  res.writeHead = patchedWriteHead as WriteHead;
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    if (!decided && !res.headersSent) patchedWriteHead(res.statusCode);
    if (held === null) return write(chunk, encoding, callback);
    const buffer = toBuffer(chunk, encoding);
    held.chunks.push(buffer);
    held.size += buffer.length;
    if (held.size > MAX_HELD_BYTES) release();
    const done = typeof encoding === 'function' ? (encoding as Callback) : typeof callback === 'function' ? (callback as Callback) : undefined;
    if (done !== undefined) process.nextTick(done);
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown): ServerResponse => {
    if (!decided && !res.headersSent) patchedWriteHead(res.statusCode);
    const page = held;
    if (page === null) return end(chunk, encoding, callback);
    held = null;
    const last = typeof chunk === 'function' || chunk === undefined || chunk === null ? [] : [toBuffer(chunk, encoding)];
    const body = Buffer.concat([...page.chunks, ...last]);
    const done = [chunk, encoding, callback].find((argument): argument is Callback => typeof argument === 'function');
    const finalBody = insertToolbar(body, page.snippet) ?? body;
    const headers = headerAccess(res, givenHeaders(page.args));
    headers.remove('ETag');
    headers.set('Content-Length', String(finalBody.length));
    writeHead(...page.args);
    return done === undefined ? end(finalBody) : end(finalBody, done);
  }) as ServerResponse['end'];
}

/**
 * Ends `request` when its response closes: with what was sent once it finished, with `null`
 * when the client left first. `before` runs first, to tell the request what only the end shows.
 */
export function endOnClose(res: ServerResponse, request: ProfiledRequest, before: () => void = () => undefined): void {
  res.once('close', () => {
    before();
    request.end(res.writableFinished ? { status: res.statusCode, headers: res.getHeaders() } : null);
  });
}
