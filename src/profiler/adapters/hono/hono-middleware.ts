import { type Context, type Next } from 'hono';
import { createIpRangeMatcher } from '../../../http/ip-range-matcher';
import { type PageResponse, type ProfilerPages } from '../../core/profiler-pages';
import { type ResponseEnd } from '../../core/request-start';
import { startProfiler, type StartedProfiler } from '../../core/start-profiler';
import { honoRequestStart, nodeBindingsOf } from './hono-request-start';
import { type LoupeMiddleware, type LoupeOptions } from './loupe-middleware';
import { markWebResponse } from './mark-web-response';
import { recordChain } from './record-chain';

/** The started profiler of a middleware, and what each request reads of it. */
interface Running {
  readonly profiler: StartedProfiler;
  readonly pages: ProfilerPages | null;
  readonly isAllowedClient: (address: string) => boolean;
}

/** Statuses whose response has no body: a Response refuses one. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** One of the profiler's pages as a web Response. */
function pageResponse(page: PageResponse): Response {
  const headers = new Headers();
  for (const [name, value] of page.headers) headers.append(name, value);
  const body = page.body.length === 0 || NULL_BODY_STATUSES.has(page.status) ? null : page.body;
  return new Response(body, { status: page.status, headers });
}

/** Headers as the profile keeps them: lower-case names, several values joined with `, `. */
function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = record[name] === undefined ? value : `${record[name]}, ${value}`;
  return record;
}

/**
 * The Hono middleware that profiles the requests after it (see `loupe`): starts the profiler on
 * the first request (or on `start()`), answers the profiler's pages itself, and runs the rest of
 * the chain inside the request's profile, recording its layers; once the chain is over it marks
 * the response (`c.res` replaced) and ends the profile when Node's response closes (at once on
 * another runtime).
 */
export function createLoupeMiddleware(options: LoupeOptions): LoupeMiddleware {
  const profiled = new WeakSet<Context>();
  const serverTiming = options.serverTiming !== false;
  let started: Promise<Running> | null = null;
  let closed = false;

  const start = (): Promise<Running> => {
    started ??= startProfiler(options).then((profiler) => ({
      profiler,
      pages: options.pages === false ? null : profiler.pages(),
      isAllowedClient: createIpRangeMatcher(profiler.config.profiler.allowedIps),
    }));
    // A profiler that failed to start (an invalid setting; a Redis away does not fail it) is tried again on the next request.
    started.catch(() => (started = null));
    return started;
  };

  const profile = async ({ profiler, pages, isAllowedClient }: Running, c: Context, next: Next): Promise<Response | undefined> => {
    const node = nodeBindingsOf(c);
    const begin = honoRequestStart(c, node, options.clientAddress);
    if (pages?.owns(begin.url.split('?')[0] ?? '') === true) return pageResponse(await pages.serve(begin));
    const request = profiler.startRequest(begin);
    let sent: ResponseEnd | null = null;
    // Ended once sent, or as aborted when the client left first; a streamed body is sent after the middleware returns.
    node?.outgoing.once('close', () => request.end(node.outgoing.writableFinished ? (sent ?? { status: node.outgoing.statusCode }) : null));
    const chain = recordChain(c, request);
    try {
      await request.run(next);
    } catch (error) {
      // Only what is no Error gets past Hono's onError: the server answers 500.
      chain.fail(error);
      chain.finish(500);
      if (node === null) request.end({ status: 500 });
      throw error;
    }
    chain.finish(c.res.status);
    const response = await markWebResponse(request, c.res, { isAllowedClient, serverTiming });
    if (response !== c.res) {
      // Unset first: Hono copies the headers of the response it replaces onto the new one, the old Content-Length and ETag included.
      c.res = undefined;
      c.res = response;
    }
    sent = { status: response.status, headers: headerRecord(response.headers) };
    if (node === null) request.end(sent);
    return undefined;
  };

  const middleware = async (c: Context, next: Next): Promise<Response | undefined> => {
    // Once per request, should the middleware be mounted twice (an app and its sub-app).
    if (closed || profiled.has(c)) {
      await next();
      return undefined;
    }
    profiled.add(c);
    return profile(await start(), c, next);
  };
  return Object.assign(middleware, {
    start: async () => (await start()).profiler,
    close: async () => {
      closed = true;
      const running = started;
      started = null;
      if (running !== null) await (await running).profiler.close();
    },
  });
}
