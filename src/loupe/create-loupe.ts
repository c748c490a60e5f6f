import { readConfig, type Config } from '../config/config';
import { createErrorController } from '../error-handler/error-controller';
import { createErrorListener } from '../error-handler/error-listener';
import { type Controller } from '../kernel/controller';
import { Kernel } from '../kernel/kernel';
import { createIpRangeMatcher } from '../http/ip-range-matcher';
import { type KernelPhase } from '../kernel/kernel-events';
import { type Listener } from '../kernel/listener';
import { ListenerRegistry } from '../kernel/listener-registry';
import { disallowRobotsIndexingListener } from '../kernel/listeners/disallow-robots-indexing-listener';
import { jsonViewListener } from '../kernel/listeners/json-view-listener';
import { createLocaleListener } from '../kernel/listeners/locale-listener';
import { responseListener } from '../kernel/listeners/response-listener';
import { validateRequestListener } from '../kernel/listeners/validate-request-listener';
import { createLogger } from '../log/create-logger';
import { type Logger } from '../log/logger';
import { createRequestLogListener } from '../log/request-log-listener';
import { startAppIoCapture } from '../profiler/app-io/start-app-io-capture';
import { checkProfilerParts } from '../profiler/check-profiler-parts';
import { type ProfileCollector } from '../profiler/collector';
import { defaultCollectors } from '../profiler/collectors/default-collectors';
import { DEFAULT_PANELS } from '../profiler/panel/panel-registry';
import { type PanelDefinition } from '../profiler/panel/panel-definition';
import { createProfiler, type Profiler } from '../profiler/profiler';
import { createProfilerAccessListener } from '../profiler/profiler-access-listener';
import { createEditorLink } from '../profiler/panel/editor-link';
import { createProfilerRoutes } from '../profiler/panel/profiler-routes';
import { ProfilerPaths } from '../profiler/profiler-paths';
import { createWebDebugToolbarListener } from '../profiler/web-debug-toolbar-listener';
import { closeRedis, connectRedis } from '../redis/connect-redis';
import { type RedisClient } from '../redis/redis-client';
import { ChainRouter } from '../routing/chain-router';
import { type RouteDefinition } from '../routing/route';
import { type Router } from '../routing/router';
import { createRouterListener } from '../routing/router-listener';
import { UrlMatcherRouter } from '../routing/url-matcher-router';
import { CredentialsVerifier } from '../security/credentials-verifier';
import { FirewallMap, type FirewallConfig } from '../security/firewall-map';
import { createFirewallListener } from '../security/firewall-listener';
import { LoginThrottle } from '../security/login-throttle';
import { createRememberMeListener } from '../security/remember-me-listener';
import { securityExceptionListener } from '../security/security-exception-listener';
import { type UserProvider } from '../security/user-provider';
import { loadNativeUws } from '../server/load-uws';
import { UwsServer } from '../server/uws-server';
import { WorkerLink } from '../server/workers/worker-link';
import { RedisSessionStorage } from '../session/redis-session-storage';
import { createSessionListener } from '../session/session-listener';
import { type SessionStorage } from '../session/session-storage';
import { inject, type InjectRequest, type InjectResponse } from './inject';

/** Who the users are and which paths need them (Symfony's security.yaml). */
export interface SecurityOptions {
  readonly firewalls: readonly FirewallConfig[];
  readonly users: UserProvider;
  /** Checks passwords; pass the one your login controller uses so they share its cache. */
  readonly verifier?: CredentialsVerifier;
}

/** What an application gives Loupe. */
export interface LoupeOptions {
  /** The application's routes, matched in order after the profiler's own (and before `router`). */
  readonly routes?: readonly RouteDefinition[];
  /**
   * The application's own router, for routes `routes` cannot describe. Loupe's own matcher (the
   * profiler's routes with debug, then `routes`) is asked first; the router only for what that
   * matcher does not answer: `/_profiler/…` and `/_wdt/…` stay the profiler's, and a path matched
   * with its trailing slash toggled is redirected before the router sees it. It throws
   * ResourceNotFoundError or MethodNotAllowedError for what it does not answer; a 405 lists the
   * methods of both. Its `generate` serves the URLs of its routes, `trace` the profiler's Routing panel.
   * Defaults to Loupe's matcher alone.
   */
  readonly router?: Router;
  /**
   * Where sessions live between requests; defaults to Redis (`<prefix>session:<id>`, expiring after
   * SESSION_LIFETIME idle seconds). The session cookie and its id stay Loupe's.
   */
  readonly sessionStorage?: SessionStorage;
  /**
   * Listeners: an array is added to the defaults (session, locale, router, firewall, remember-me,
   * response, robots, profiler, web debug toolbar, error…); a function gets the defaults and returns the set to run,
   * to remove or replace some.
   */
  readonly listeners?: readonly Listener[] | ((defaults: readonly Listener[]) => readonly Listener[]);
  /** The application's own profiler collectors, recorded after Loupe's (request, exception, logs, events, router, machine). */
  readonly collectors?: readonly ProfileCollector[];
  /** The application's own profiler panels, each reading one collector's entry, shown after Loupe's. */
  readonly panels?: readonly PanelDefinition[];
  /** Renders errors in the error sub-request; defaults to Loupe's HTML/JSON error pages. */
  readonly errorController?: Controller;
  /** Firewalls and users; without it no request is authenticated. */
  readonly security?: SecurityOptions;
  /** Defaults to readConfig(process.env). */
  readonly config?: Config;
  /**
   * The terminal log: one line per request, and what goes wrong outside a request (a dropped
   * profile, a crash). Any pino-compatible logger; defaults to createLogger(config.log).
   */
  readonly logger?: Logger;
}

/** One phase's listeners, in the order they run, as `debug:listeners` prints them. */
export interface ListenerTableRow {
  readonly phase: KernelPhase;
  readonly listeners: readonly { readonly name: string; readonly priority: number }[];
}

/** A Loupe application. Redis is connected by the first listen() or inject(). */
export interface Loupe {
  readonly config: Config;
  /** The logger Loupe writes to: the one given, or the one it created from the configuration. */
  readonly logger: Logger;
  /**
   * Starts serving; resolves with the URL and the port actually bound (PORT=0 picks a free one),
   * and with debug on the URL of the profiler's search page (else `null`).
   */
  listen(): Promise<{ readonly url: string; readonly port: number; readonly profilerUrl: string | null }>;
  /** Runs one request through the kernel without a socket. */
  inject(request: InjectRequest): Promise<InjectResponse>;
  /** Stops accepting, finishes in-flight requests, stores queued profiles, closes Redis. */
  close(): Promise<void>;
  /** The listeners of each phase in the order they run (`npx loupe debug:listeners`); connects Redis as listen() would. */
  listenerTable(): Promise<readonly ListenerTableRow[]>;
  /**
   * The profiler once started with debug on, else `null`.
   * @internal
   */
  readonly profiler: Profiler | null;
  /** The requests in flight right now. */
  readonly activeRequests: number;
  /** The requests handled since the first listen() or inject(). */
  readonly handledRequests: number;
  /** Resolves once no request is in flight. */
  whenIdle(): Promise<void>;
}

interface Started {
  readonly registry: ListenerRegistry;
  readonly redis: RedisClient;
  readonly kernel: Kernel;
  readonly profiler: Profiler | null;
  /** Stops capturing the application's I/O (nothing to stop without the profiler). */
  readonly stopCapture: () => void;
}

/** The listeners every application gets, in the order of Symfony's defaults. */
function defaultListeners(config: Config, router: Router, sessionStorage: SessionStorage, redis: RedisClient, profiler: Profiler | null, security: SecurityOptions | undefined, logger: Logger): Listener[] {
  const listeners: Listener[] = [
    validateRequestListener,
    createRequestLogListener(logger),
    createLocaleListener(config.locale),
    createRouterListener(router, { stackTraces: config.debug }),
    jsonViewListener,
    responseListener,
    createErrorListener({ debug: config.debug }),
    createSessionListener({
      storage: sessionStorage,
      cookieName: config.session.cookieName,
      // A browser-session cookie: Redis expires idle sessions (see SessionListenerOptions.lifetime).
      lifetime: 0,
    }),
  ];
  if (config.debug) listeners.push(disallowRobotsIndexingListener, createProfilerAccessListener(config.profiler.allowedIps));
  if (profiler !== null) listeners.push(...profiler.listeners, createWebDebugToolbarListener(config.profiler.allowedIps));
  if (security !== undefined) {
    const firewalls = new FirewallMap(security.firewalls);
    const verifier = security.verifier ?? new CredentialsVerifier(security.users);
    verifier.useThrottle(new LoginThrottle(redis, config.redis.prefix));
    listeners.push(
      createRememberMeListener({
        secret: config.security.secret,
        lifetime: config.security.rememberMeLifetime,
        cookieName: config.security.rememberMeCookieName,
        users: security.users,
        firewalls,
      }),
      createFirewallListener({ firewalls, verifier }),
      securityExceptionListener,
    );
  }
  return listeners;
}

/**
 * A Loupe application: the kernel with the default listeners, the application's routes (or
 * router) and listeners, the profiler (with debug), sessions in Redis (or the storage given) and
 * the uWS server.
 */
export function createLoupe(options: LoupeOptions): Loupe {
  const config = options.config ?? readConfig();
  const logger = options.logger ?? createLogger(config.log);
  // Checked now: an invalid PROFILER_ALLOWED_IPS, or two collectors of one name, fail before anything is opened.
  if (config.debug) createProfilerAccessListener(config.profiler.allowedIps);
  const secretCookies = new Set([config.session.cookieName, config.security.rememberMeCookieName]);
  const profilerParts = checkProfilerParts({
    collectors: [...defaultCollectors({ secretCookies, slowMs: config.profiler.slowCallMs }), ...(options.collectors ?? [])],
    panels: [...DEFAULT_PANELS, ...(options.panels ?? [])],
  });
  let starting: Promise<Started> | null = null;
  let started: Started | null = null;
  let server: UwsServer | null = null;

  const start = async (): Promise<Started> => {
    const redis = await connectRedis(config.redis.url, 'loupe', config.redis);
    try {
      const profiler = config.debug ? await createProfiler(config, redis, profilerParts, (line) => logger.warn(line)) : null;
      // The profiler's pages exist only with debug: without it /_profiler/... is a plain 404.
      const profilerRoutes =
        profiler === null
          ? []
          : createProfilerRoutes({
              storage: profiler.storage,
              isStorageConnected: () => redis.status === 'ready',
              stats: () => profiler.stats(),
              droppedReason: (token) => profiler.writer.droppedReason(token),
              panels: profiler.panels,
              workers: () => WorkerLink.current(),
              editorLink: createEditorLink(config.profiler.ide),
            });
      const ownRouter = new UrlMatcherRouter([...profilerRoutes, ...(options.routes ?? [])]);
      const router = options.router === undefined ? ownRouter : new ChainRouter([ownRouter, options.router]);
      const sessionStorage = options.sessionStorage ?? new RedisSessionStorage(redis, { prefix: config.redis.prefix, lifetime: config.session.lifetime });
      const defaults = defaultListeners(config, router, sessionStorage, redis, profiler, options.security, logger);
      const listeners = typeof options.listeners === 'function' ? options.listeners(defaults) : [...defaults, ...(options.listeners ?? [])];
      const registry = new ListenerRegistry(listeners);
      const kernel = new Kernel({
        defaultLocale: config.locale.defaultLocale,
        errorController: options.errorController ?? createErrorController({ debug: config.debug }),
        listeners: registry,
        // Timing the controller and the application's spans is for the profiler and Server-Timing only.
        detailedTrace: config.debug || config.serverTiming,
        serverTiming: config.serverTiming,
        requestContext: config.requestContext,
        recordLimit: config.profiler.maxEntries,
        capture: new Set(profiler === null ? [] : config.profiler.capture),
        onCrash: (error) => logger.error({ err: error }, 'Request actor crashed.'),
      });
      // The application's SQL, HTTP calls and Redis commands are told apart by the request context.
      const stopCapture = profiler !== null && config.requestContext ? startAppIoCapture(config.profiler.capture) : () => {};
      return (started = { registry, redis, kernel, profiler, stopCapture });
    } catch (error) {
      redis.disconnect();
      throw error;
    }
  };
  const ready = (): Promise<Started> => (starting ??= start());
  const closeStarted = async (): Promise<void> => {
    if (starting === null) return;
    const { redis, kernel, profiler, stopCapture } = await starting;
    if (server !== null) await server.close();
    else await kernel.whenIdle();
    stopCapture();
    await profiler?.close();
    await closeRedis(redis);
  };

  return {
    config,
    logger,
    get profiler() {
      return started?.profiler ?? null;
    },
    get activeRequests() {
      return started?.kernel.activeRequests ?? 0;
    },
    get handledRequests() {
      return started?.kernel.handledRequests ?? 0;
    },
    whenIdle: async () => {
      if (starting !== null) await (await starting).kernel.whenIdle();
    },
    listenerTable: async () => (await ready()).registry.table(),
    listen: async () => {
      const uws = loadNativeUws();
      const { kernel, profiler } = await ready();
      const { host, port: wanted, maxBodySize } = config.server;
      const live =
        profiler === null
          ? {}
          : {
              live: {
                path: ProfilerPaths.LIVE,
                isAllowed: createIpRangeMatcher(config.profiler.allowedIps),
                ready: () => profiler.live.start(),
                subscribe: (send: (message: string) => void) => profiler.live.onMessage(send),
                onError: (error: unknown) => logger.warn({ err: error }, 'Live profile feed unavailable.'),
              },
            };
      server = new UwsServer(
        kernel,
        {
          host,
          port: wanted,
          maxBodySize,
          sharedPort: WorkerLink.current() !== null,
          onError: (error) => logger.error({ err: error }, 'Request failed outside the kernel.'),
          ...live,
        },
        uws,
      );
      let port: number;
      try {
        port = await server.listen();
      } catch (error) {
        server = null;
        await closeStarted();
        throw error;
      }
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      return { url, port, profilerUrl: config.debug ? `${url}${ProfilerPaths.HOME}` : null };
    },
    inject: async (request) => {
      const { kernel } = await ready();
      return inject(kernel, request, { port: server?.port ?? null, maxBodySize: config.server.maxBodySize });
    },
    close: closeStarted,
  };
}
