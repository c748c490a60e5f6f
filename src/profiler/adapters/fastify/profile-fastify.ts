import diagnostics from 'node:diagnostics_channel';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { NotFoundHttpError } from '../../../errors/http-error';
import { withoutStackTraces } from '../../../errors/without-stack-traces';
import { createIpRangeMatcher } from '../../../http/ip-range-matcher';
import { requestContext } from '../../../kernel/request-context';
import { type ProfiledRequest } from '../../core/profiled-request';
import { type ProfilerPages } from '../../core/profiler-pages';
import { startProfiler, type StartedProfiler, type StartProfilerOptions } from '../../core/start-profiler';
import { type EnabledOptions } from '../is-profiling-enabled';
import { insertToolbar } from '../insert-toolbar';
import { markResponse, type ResponseHeaderAccess } from '../mark-response';
import { requestStartOf } from '../request-start-of';
import { profiledLogger } from './profiled-logger';
import { mountProfilerPages } from './profiler-page-routes';

/** Fastify's tracing channel around a route's handler (built in since Fastify 5): its start is where the handler state begins. */
const HANDLER_START = 'tracing:fastify.request.handler:start';

export interface LoupeOptions extends StartProfilerOptions, EnabledOptions {
  /** Serve the profiler's pages (`/_profiler…`, `/_wdt…`) from the application; on by default. */
  readonly pages?: boolean;
  /** Add a `Server-Timing` header to every profiled response (the browser's network panel shows it); on by default. */
  readonly serverTiming?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Loupe's profiler, once the `loupe` plugin is registered and on. */
    loupe?: StartedProfiler;
  }
}

/**
 * Where each request of one application keeps its handle: a decoration of the plugin's own (as
 * any plugin's `decorateRequest`), under a symbol of this registration's, as another application
 * of the process has its own (Fastify's handler channel tells every one of them of every request).
 * Fastify makes it a field of every request object, which a WeakMap entry per request, swept by
 * the garbage collector, is not.
 */
class RequestHandles {
  readonly #key = Symbol('loupe.profiledRequest');

  constructor(app: FastifyInstance) {
    app.decorateRequest(this.#key, null);
  }

  /** The handle of a request this application profiles, else `undefined`. */
  get(request: object): ProfiledRequest | undefined {
    return (request as Partial<Record<symbol, ProfiledRequest | null>>)[this.#key] ?? undefined;
  }

  set(request: FastifyRequest, handle: ProfiledRequest): void {
    (request as unknown as Record<symbol, ProfiledRequest | null>)[this.#key] = handle;
  }
}

/** A reply's headers as markResponse reads and changes them: one object per response, no closures. */
class ReplyHeaders implements ResponseHeaderAccess {
  readonly #reply: FastifyReply;

  constructor(reply: FastifyReply) {
    this.#reply = reply;
  }

  get(name: string): string | undefined {
    const value = this.#reply.getHeader(name);
    return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
  }

  set(name: string, value: string): void {
    this.#reply.header(name, value);
  }

  remove(name: string): void {
    this.#reply.removeHeader(name);
  }
}

/** The path of a request target, without its query. */
function pathOf(url: string): string {
  const question = url.indexOf('?');
  return question === -1 ? url : url.slice(0, question);
}

/**
 * The route the request matched, as `GET /users/:id`, with the handler's name; Fastify's
 * not-found handler as a 404 of no route. That 404's error has no stack: its frames would be this
 * hook's and Fastify's router, nothing of the application's, and capturing and reading them was
 * a tenth of a profiled 404's CPU.
 */
function nameRoute(handle: ProfiledRequest, request: FastifyRequest): void {
  const { request: incoming } = handle;
  if (request.is404) {
    const message = `No route found for "${incoming.data.method} ${incoming.uriForPath(incoming.path)}"`;
    handle.fail(withoutStackTraces(() => new NotFoundHttpError(message)));
    return;
  }
  // Read once: Fastify builds a new object of a dozen fields at each reading.
  const { handler, url } = request.routeOptions;
  // Fastify binds the handler to the instance: its name is the function's behind `bound `.
  const name = handler.name.replace(/^bound /, '');
  handle.setRoute(`${request.method} ${url ?? request.url}`, name === '' ? undefined : name);
  const params = (request.params ?? {}) as Readonly<Record<string, unknown>>;
  for (const key in params) {
    const value = params[key];
    if (typeof value === 'string' && Object.hasOwn(params, key)) incoming.attributes.set(key, value);
  }
}

/**
 * Profiles every request of a Fastify application (see `loupe` in `loupe-kernel/fastify`): its
 * hooks record the lifecycle as states, the route and handler, errors and the response, and put
 * the token and the toolbar in the response; the request's code runs in its profile.
 */
export async function profileFastify(app: FastifyInstance, options: LoupeOptions): Promise<void> {
  const profiler = await startProfiler(options);
  const pages: ProfilerPages | null = options.pages === false ? null : profiler.pages();
  const marking = { isAllowedClient: createIpRangeMatcher(profiler.config.profiler.allowedIps), serverTiming: options.serverTiming !== false };
  const handles = new RequestHandles(app);
  const onHandlerStart = (message: unknown): void => {
    const request = (message as { request?: unknown } | null)?.request;
    if (typeof request === 'object' && request !== null) handles.get(request)?.enter('handler');
  };
  diagnostics.subscribe(HANDLER_START, onHandlerStart);
  app.decorate('loupe', profiler);
  // The search page's live list, on the upgrades of the application's own server.
  const stopLiveFeed = pages === null ? () => undefined : profiler.serveLiveFeed(app.server);
  app.addHook('onClose', async () => {
    diagnostics.unsubscribe(HANDLER_START, onHandlerStart);
    stopLiveFeed();
    await profiler.close();
  });
  if (pages !== null) mountProfilerPages(app, pages);

  app.addHook('onRequest', (request, reply, done) => {
    if (pages?.owns(pathOf(request.raw.url ?? '/')) === true) return done();
    const handle = profiler.startRequest(requestStartOf(request.raw));
    handles.set(request, handle);
    handle.enter('onRequest');
    nameRoute(handle, request);
    // Fastify gives the request and its reply one child logger: one wrapper serves both.
    const logger = request.log;
    request.log = profiledLogger(logger, handle);
    reply.log = reply.log === logger ? request.log : profiledLogger(reply.log, handle);
    // The hooks after this one and the handler continue from here, synchronously or not: they all
    // run in the request's context, as does the body's parsing, whose events come from the same connection.
    requestContext.enterWith(handle);
    done();
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    handles.get(request)?.enter('preParsing');
    done(null, payload);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    handles.get(request)?.enter('preValidation');
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    handles.get(request)?.enter('preHandler');
    done();
  });
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    handles.get(request)?.enter('preSerialization');
    done(null, payload);
  });
  app.addHook('onError', (request, _reply, error, done) => {
    handles.get(request)?.fail(error);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const handle = handles.get(request);
    if (handle === undefined) return done(null, payload);
    handle.enter('onSend');
    const headers = new ReplyHeaders(reply);
    const snippet = markResponse(handle, reply.statusCode, headers, marking);
    // A stream (or anything but a whole body) is sent as it comes: holding it is the application's choice, not Loupe's.
    const page = snippet === null ? null : typeof payload === 'string' ? insertToolbar(payload, snippet) : Buffer.isBuffer(payload) ? insertToolbar(payload, snippet) : null;
    if (page === null) return done(null, payload);
    headers.remove('ETag');
    headers.set('Content-Length', String(Buffer.byteLength(page)));
    done(null, page);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const handle = handles.get(request);
    if (handle !== undefined) {
      handle.enter('onResponse');
      handle.end({ status: reply.statusCode, headers: reply.getHeaders() });
    }
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    handles.get(request)?.end(null);
    done();
  });
}
