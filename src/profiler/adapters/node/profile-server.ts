import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createIpRangeMatcher } from '../../../http/ip-range-matcher';
import { startProfiler, type StartedProfiler, type StartProfilerOptions } from '../../core/start-profiler';
import { isProfilingEnabled, type EnabledOptions } from '../is-profiling-enabled';
import { endOnClose, instrumentResponse } from '../node-response';
import { requestStartOf } from '../request-start-of';
import { writePage } from '../write-page';

export interface ProfileServerOptions extends StartProfilerOptions, EnabledOptions {
  /** Serve the profiler's pages (`/_profiler…`, `/_wdt…`) from this server; on by default. */
  readonly pages?: boolean;
  /** Add a `Server-Timing` header to every profiled response (the browser's network panel shows it); on by default. */
  readonly serverTiming?: boolean;
}

/** A server being profiled. */
export interface ProfiledServer {
  readonly profiler: StartedProfiler;
  /** Stops profiling the server (its requests are served as before) and closes the profiler. */
  close(): Promise<void>;
}

/**
 * Profiles every request of a node:http (or https) server, whatever framework answers it (Koa,
 * NestJS on Express or Fastify, a plain handler): each request gets its profile, `X-Debug-Token`
 * and `X-Debug-Token-Link`, `Server-Timing`, the toolbar in its HTML pages, and the application's SQL, HTTP calls
 * and Redis commands captured into it; the server also answers the profiler's pages. The server's
 * `request` event is run inside the request's profile, so the application's listeners, added
 * before or after, all run in it. Profiles are kept in memory unless REDIS_URL names a Redis to
 * share them; a Redis that does not answer does not fail it. Resolves with `null`, loading nothing
 * of the profiler, when it is off.
 *
 * ```ts
 * const server = http.createServer(app);
 * await require('loupe-kernel/node').profileServer(server);
 * server.listen(3000);
 * ```
 */
export async function profileServer(server: Server, options: ProfileServerOptions = {}): Promise<ProfiledServer | null> {
  if (!isProfilingEnabled(options)) return null;
  const profiler = await startProfiler(options);
  const pages = options.pages === false ? null : profiler.pages();
  const isAllowedClient = createIpRangeMatcher(profiler.config.profiler.allowedIps);
  const serverTiming = options.serverTiming !== false;
  const emit = server.emit;
  const profiledEmit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    const [req, res] = args;
    const emitted = (): boolean => Reflect.apply(emit, this, [event, ...args]) as boolean;
    if (event !== 'request' || !(req instanceof Object) || !(res instanceof Object)) return emitted();
    const incoming = req as IncomingMessage;
    const response = res as ServerResponse;
    const start = requestStartOf(incoming);
    if (pages?.owns(start.url.split('?')[0] ?? '') === true) {
      void pages.serve(start).then((page) => writePage(response, page));
      return true;
    }
    const request = profiler.startRequest(start);
    instrumentResponse(response, request, { isAllowedClient, serverTiming });
    endOnClose(response, request);
    return request.run(emitted);
  };
  // The instance's own `emit`: the server's `request` listeners, whoever added them and when, run inside the profile.
  server.emit = profiledEmit as Server['emit'];
  // The search page's live list, where the pages are served.
  const stopLiveFeed = pages === null ? () => undefined : profiler.serveLiveFeed(server);
  return {
    profiler,
    close: async () => {
      if (server.emit === profiledEmit) server.emit = emit;
      stopLiveFeed();
      await profiler.close();
    },
  };
}
