import { resolveConfig, type Config } from '../config/config';
import { type LoupeConfigInput } from '../config/config-input';
import { readSourceRoot } from '../config/source-root';
import { createErrorController, type ErrorControllerOptions } from '../error-handler/error-controller';
import { createErrorListener } from '../error-handler/error-listener';
import { type Controller } from '../kernel/controller';
import { Kernel } from '../kernel/kernel';
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
import { checkProfilerParts, profilerPlugin, ProfilerPaths, RedactionPolicy, type PanelDefinition, type ProfileCollector, type Profiler, type ProfilerConfigInput, type ToolbarItem } from '../profiler';
import { type RedisClient } from '../redis/redis-client';
import { type RedisConfig } from '../redis/redis-config';
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
import { loadTunedUws } from '../server/tune-process';
import { UwsServer } from '../server/uws-server';
import { WorkerLink } from '../server/workers/worker-link';
import { MemorySessionStorage } from '../session/memory-session-storage';
import { RedisSessionStorage } from '../session/redis-session-storage';
import { createSessionListener } from '../session/session-listener';
import { type SessionStorage } from '../session/session-storage';
import { inject, type InjectRequest, type InjectResponse } from './inject';
import { type LoupePlugin, type PluginRuntime } from './plugin';
import { type WebSocketRoute } from '../server/web-socket-route';

/** Who the users are and which paths need them (Symfony's security.yaml). */
export interface SecurityOptions {
  /** The firewalls in order: a request belongs to the first whose pattern matches its path; none, and it is not secured. */
  readonly firewalls: readonly FirewallConfig[];
  /** Where users are loaded from by identifier (an InMemoryUserProvider, or a database of your own). */
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
   * with its trailing slash toggled is redirected before the router sees it. It answers what it
   * does not match with `routeMiss()` (a 404) or `routeMiss(methods)` (a 405, listing the methods
   * of both). Its `generate` serves the URLs of its routes; a TraceableRouter's `trace` lists its
   * routes in the profiler's Routing panel. Defaults to Loupe's matcher alone.
   */
  readonly router?: Router;
  /**
   * Where sessions live between requests; defaults to Redis (`<prefix>session:<id>`, expiring after
   * SESSION_LIFETIME idle seconds), or without Redis (`config.redis` null) to this process's memory,
   * with the same expiry. The session cookie and its id stay Loupe's.
   */
  readonly sessionStorage?: SessionStorage;
  /**
   * Listeners: an array is added to the defaults (session, locale, router, firewall, remember-me,
   * response, robots, profiler, web debug toolbar, error…); a function gets the defaults and returns the set to run,
   * to remove or replace some.
   */
  readonly listeners?: readonly Listener[] | ((defaults: readonly Listener[]) => readonly Listener[]);
  /** The application's own profiler collectors, recorded after those of Loupe and of the plugins. */
  readonly collectors?: readonly ProfileCollector[];
  /** The application's own profiler panels, each reading one collector's entry, shown after Loupe's and the plugins'. */
  readonly panels?: readonly PanelDefinition[];
  /** The application's own items of the web debug toolbar, after Loupe's and the plugins'. */
  readonly toolbarItems?: readonly ToolbarItem[];
  /** The application's own WebSocket routes (uWS's `ws()`), beside the plugins'. */
  readonly webSockets?: readonly WebSocketRoute[];
  /**
   * Plugins, each adding collectors, panels, toolbar items, CLI commands and, once started,
   * listeners, routes and WebSocket routes (see LoupePlugin). With the profiler on, it is the
   * first of them; an application's come after it, in order.
   */
  readonly plugins?: readonly LoupePlugin[];
  /** Renders errors in the error sub-request; defaults to Loupe's HTML/JSON error pages. */
  readonly errorController?: Controller;
  /** Firewalls and users; without it no request is authenticated. */
  readonly security?: SecurityOptions;
  /**
   * The configuration given in code (LoupeConfigInput, a Config included): each option wins over
   * its environment variable, which wins over the default. `env` says which environment is read
   * (`process.env` by default; `{}` for none). Defaults to the environment alone.
   */
  readonly config?: LoupeConfigInput;
  /**
   * The profiler's own settings given in code (sample, allowedIps, capture, retention…), each over
   * its PROFILER_* variable; handed to the profiler plugin, not part of `config`. Unused with the profiler off.
   */
  readonly profilerConfig?: ProfilerConfigInput;
  /**
   * The terminal log: one line per request, and what goes wrong outside a request (a dropped
   * profile, a crash). Any pino-compatible logger; defaults to createLogger(config.log).
   */
  readonly logger?: Logger;
}

/** One phase's listeners, in the order they run, as `debug:listeners` prints them. */
export interface ListenerTableRow {
  /** The phase, e.g. `kernel.request`. */
  readonly phase: KernelPhase;
  /** Its listeners by name and priority, highest priority (first to run) first. */
  readonly listeners: readonly { readonly name: string; readonly priority: number }[];
}

/**
 * A Loupe application. Redis is connected by the first listen() or inject(); with `config.redis`
 * null (REDIS_URL empty) nothing is connected: sessions, login throttling and profiles are kept in
 * this process's memory, so a test of a route needs no service.
 */
export interface Loupe {
  /** The configuration the application runs with: the one given, else read from `process.env`. */
  readonly config: Config;
  /** The logger Loupe writes to: the one given, or the one it created from the configuration. */
  readonly logger: Logger;
  /**
   * Starts serving; resolves with the URL and the port actually bound (PORT=0 picks a free one),
   * and with the profiler on the URL of the profiler's search page (else `null`). As the process's owner,
   * tunes the process first (V8's pretenuring off, uWS's request-head limit: docs/configuration.md).
   */
  listen(): Promise<{ readonly url: string; readonly port: number; readonly profilerUrl: string | null }>;
  /** Runs one request through the kernel without a socket. */
  inject(request: InjectRequest): Promise<InjectResponse>;
  /** Stops accepting, finishes in-flight requests, stores queued profiles, closes Redis (when there is one). */
  close(): Promise<void>;
  /** The listeners of each phase in the order they run (`npx loupe debug:listeners`); connects Redis as listen() would. */
  listenerTable(): Promise<readonly ListenerTableRow[]>;
  /**
   * The profiler once started (with `config.profiler` on), else `null`.
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
  /** `null` without Redis. */
  readonly redis: RedisClient | null;
  readonly kernel: Kernel;
  /** The started plugins, in order; closed in reverse order. */
  readonly runtimes: readonly PluginRuntime[];
}

/** Starts each plugin in order; one that fails closes those already started. */
async function startPlugins(plugins: readonly LoupePlugin[], context: Parameters<NonNullable<LoupePlugin['start']>>[0]): Promise<PluginRuntime[]> {
  const runtimes: PluginRuntime[] = [];
  try {
    for (const plugin of plugins) runtimes.push((await plugin.start?.(context)) ?? {});
    return runtimes;
  } catch (error) {
    await closePlugins(runtimes);
    throw error;
  }
}

async function closePlugins(runtimes: readonly PluginRuntime[]): Promise<void> {
  for (const runtime of [...runtimes].reverse()) await runtime.close?.();
}

/** The smallest record limit the started plugins ask for (PluginRuntime.recordLimit), if any asks. */
function recordLimitOf(runtimes: readonly PluginRuntime[]): { recordLimit?: number } {
  const limits = runtimes.flatMap((runtime) => (runtime.recordLimit === undefined ? [] : [runtime.recordLimit]));
  return limits.length === 0 ? {} : { recordLimit: Math.min(...limits) };
}

/** The listeners every application gets, in the order of Symfony's defaults. */
function defaultListeners(config: Config, router: Router, sessionStorage: SessionStorage, redis: RedisClient | null, pluginListeners: readonly Listener[], security: SecurityOptions | undefined, logger: Logger): Listener[] {
  const listeners: Listener[] = [
    validateRequestListener,
    // The terminal log redacts as profiles do, PROFILER_REDACT's names included.
    createRequestLogListener(logger, new RedactionPolicy({ names: config.log.redact ?? [] })),
    createLocaleListener(config.locale),
    // The debug error page and the profiler's Exception panel both show the trace of a 404.
    createRouterListener(router, { stackTraces: config.debug || config.profiler }),
    jsonViewListener,
    responseListener,
    createErrorListener({ debug: config.debug }),
    createSessionListener({
      storage: sessionStorage,
      cookieName: config.session.cookieName,
      // A browser-session cookie: the storage expires idle sessions (see SessionListenerOptions.lifetime).
      lifetime: 0,
    }),
  ];
  if (config.debug) listeners.push(disallowRobotsIndexingListener);
  listeners.push(...pluginListeners);
  if (security !== undefined) {
    const firewalls = new FirewallMap(security.firewalls);
    const verifier = security.verifier ?? new CredentialsVerifier(security.users);
    // Without Redis the prefix only names the counters kept in memory.
    verifier.useThrottle(new LoginThrottle(redis, config.redis?.prefix ?? 'loupe:'));
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
 * Connects Loupe's Redis. The Redis client is loaded here, not when this module is: an application
 * without Redis (a test of its routes) loads no Redis client at all.
 */
function openRedis(redis: RedisConfig): Promise<RedisClient> {
  const { connectRedis } = require('../redis/connect-redis') as typeof import('../redis/connect-redis');
  return connectRedis(redis.url, 'loupe', redis);
}

/** Closes the connection openRedis made (the client is loaded by then). */
function shutRedis(redis: RedisClient): Promise<void> {
  return (require('../redis/connect-redis') as typeof import('../redis/connect-redis')).closeRedis(redis);
}

/** Sessions in Redis, or without it in this process's memory; both expire after SESSION_LIFETIME idle seconds. */
function defaultSessionStorage(config: Config, redis: RedisClient | null): SessionStorage {
  if (redis === null || config.redis === null) return new MemorySessionStorage({ lifetime: config.session.lifetime });
  return new RedisSessionStorage(redis, { prefix: config.redis.prefix, lifetime: config.session.lifetime });
}

/**
 * The debug error page's settings: its source excerpts read the application's files under
 * PROFILER_SOURCE_ROOT (the working directory by default), the root the profiler's panels and
 * editor links use, so that the page and the panels show the same files.
 */
function errorPageOptions(config: Config): ErrorControllerOptions {
  const root = readSourceRoot(config.env);
  return root === null ? { debug: config.debug } : { debug: config.debug, sourceRoot: root };
}

/**
 * A Loupe application: the kernel with the default listeners, the application's routes (or
 * router) and listeners, the profiler (`config.profiler`, as debug by default), sessions in Redis
 * (in memory without Redis, or the storage given) and the uWS server.
 */
export function createLoupe(options: LoupeOptions): Loupe {
  const config = resolveConfig(options.config);
  const logger = options.logger ?? createLogger(config.log);
  let profiler: Profiler | null = null;
  // With the profiler off nothing of it is loaded: /_profiler/... is a plain 404 (debug or not).
  const plugins = [...(config.profiler ? [profilerPlugin({ config, settings: options.profilerConfig ?? {}, onStart: (started) => (profiler = started) })] : []), ...(options.plugins ?? [])];
  const parts = {
    collectors: [...plugins.flatMap((plugin) => plugin.collectors ?? []), ...(options.collectors ?? [])],
    panels: [...plugins.flatMap((plugin) => plugin.panels ?? []), ...(options.panels ?? [])],
    toolbarItems: [...plugins.flatMap((plugin) => plugin.toolbarItems ?? []), ...(options.toolbarItems ?? [])],
  };
  // Checked now: two collectors of one name, or a panel reading none, fail before anything is opened.
  if (config.profiler) checkProfilerParts(parts);
  let starting: Promise<Started> | null = null;
  let started: Started | null = null;
  let server: UwsServer | null = null;

  const start = async (): Promise<Started> => {
    const redis = config.redis === null ? null : await openRedis(config.redis);
    let runtimes: PluginRuntime[] = [];
    try {
      runtimes = await startPlugins(plugins, { config, logger, redis, ...parts });
      const ownRouter = new UrlMatcherRouter([...runtimes.flatMap((runtime) => runtime.routes ?? []), ...(options.routes ?? [])]);
      const router = options.router === undefined ? ownRouter : new ChainRouter([ownRouter, options.router]);
      const sessionStorage = options.sessionStorage ?? defaultSessionStorage(config, redis);
      const defaults = defaultListeners(config, router, sessionStorage, redis, runtimes.flatMap((runtime) => runtime.listeners ?? []), options.security, logger);
      const listeners = typeof options.listeners === 'function' ? options.listeners(defaults) : [...defaults, ...(options.listeners ?? [])];
      const registry = new ListenerRegistry(listeners);
      const kernel = new Kernel({
        defaultLocale: config.locale.defaultLocale,
        errorController: options.errorController ?? createErrorController(errorPageOptions(config)),
        listeners: registry,
        // Timing the controller and the application's spans is for the profiler and Server-Timing only.
        detailedTrace: config.profiler || config.serverTiming,
        serverTiming: config.serverTiming,
        requestContext: config.requestContext,
        ...recordLimitOf(runtimes),
        onCrash: (error) => logger.error({ err: error }, 'Request actor crashed.'),
      });
      return (started = { registry, redis, kernel, runtimes });
    } catch (error) {
      await closePlugins(runtimes);
      redis?.disconnect();
      throw error;
    }
  };
  const ready = (): Promise<Started> => (starting ??= start());
  const closeStarted = async (): Promise<void> => {
    if (starting === null) return;
    const { redis, kernel, runtimes } = await starting;
    if (server !== null) await server.close();
    else await kernel.whenIdle();
    await closePlugins(runtimes);
    if (redis !== null) await shutRedis(redis);
  };

  return {
    config,
    logger,
    get profiler() {
      return profiler;
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
      // The process's owner tunes it (tune-process.ts); createLoupe() and inject() change nothing global.
      const uws = loadTunedUws((warning) => logger.warn(warning));
      const { kernel, runtimes } = await ready();
      const { host, port: wanted, maxBodySize } = config.server;
      server = new UwsServer(
        kernel,
        {
          host,
          port: wanted,
          maxBodySize,
          sharedPort: WorkerLink.current() !== null,
          onError: (error) => logger.error({ err: error }, 'Request failed outside the kernel.'),
          webSockets: [...runtimes.flatMap((runtime) => runtime.webSockets ?? []), ...(options.webSockets ?? [])],
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
      return { url, port, profilerUrl: config.profiler ? `${url}${ProfilerPaths.HOME}` : null };
    },
    inject: async (request) => {
      const { kernel } = await ready();
      return inject(kernel, request, { port: server?.port ?? null, maxBodySize: config.server.maxBodySize });
    },
    close: closeStarted,
  };
}
