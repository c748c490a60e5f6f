import type Redis from 'ioredis';
import { type Config } from '../config/config';
import { createErrorController } from '../error-handler/error-controller';
import { Kernel } from '../kernel/kernel';
import { createErrorListener } from '../error-handler/error-listener';
import { createFirewallListener } from '../security/firewall-listener';
import { createRememberMeListener } from '../security/remember-me-listener';
import { createSessionListener } from '../session/session-listener';
import { disallowRobotsIndexingListener } from '../kernel/listeners/disallow-robots-indexing-listener';
import { createLocaleListener } from '../kernel/listeners/locale-listener';
import { responseListener } from '../kernel/listeners/response-listener';
import { createRouterListener } from '../routing/router-listener';
import { validateRequestListener } from '../kernel/listeners/validate-request-listener';
import { viewListener } from '../kernel/listeners/json-view-listener';
import { connectRedis } from '../redis/connect-redis';
import { UrlMatcherRouter } from '../routing/url-matcher-router';
import { createDemoSecurity } from '../security/demo-security';
import { loadNativeUws } from '../server/load-uws';
import { UwsServer } from '../server/uws-server';
import { RedisSessionStorage } from '../session/redis-session-storage';
import { checkProfilerParts } from '../profiler/check-profiler-parts';
import { defaultCollectors } from '../profiler/collectors/default-collectors';
import { createProfiler, type Profiler, type ProfilerParts } from '../profiler/profiler';
import { createProfilerAccessListener } from '../profiler/profiler-access-listener';
import { DEFAULT_PANELS } from '../profiler/panel/panel-registry';
import { createProfilerRoutes } from '../profiler/panel/profiler-routes';
import { appRoutes } from './routes';

/** Cookies whose values a profile never records. */
const SECRET_COOKIES: ReadonlySet<string> = new Set(['LOUPESESSID', 'LOUPE_REMEMBERME']);

/** A started Loupe application: its URL, kernel and Redis client, and how to stop it. */
export interface RunningApplication {
  readonly url: string;
  readonly port: number;
  readonly kernel: Kernel;
  readonly redis: Redis;
  /** The profiler, on only with debug. */
  readonly profiler: Profiler | null;
  /** Stops accepting, finishes in-flight requests, closes Redis. */
  close(): Promise<void>;
}

/**
 * Connects Redis, assembles the kernel with the demo application and listens. `profilerExtras`
 * are the application's own collectors and panels, added after Loupe's.
 */
export async function startApplication(
  config: Config,
  log: (line: string) => void = () => undefined,
  profilerExtras: Partial<ProfilerParts> = {},
): Promise<RunningApplication> {
  // Refuse the pure-JS fallback before connecting anything.
  const uws = loadNativeUws();
  // Built first: an invalid PROFILER_ALLOWED_IPS fails the start before anything is opened.
  const profilerAccessListener = config.debug ? createProfilerAccessListener(config.profilerAllowedIps) : null;
  // Checked here too, for the same reason: two collectors of one name fail before Redis is opened.
  const profilerParts = checkProfilerParts({
    collectors: [...defaultCollectors({ secretCookies: SECRET_COOKIES }), ...(profilerExtras.collectors ?? [])],
    panels: [...DEFAULT_PANELS, ...(profilerExtras.panels ?? [])],
  });
  const redis = await connectRedis(config.redisUrl, 'loupe');
  const profiler = config.debug ? await createProfiler(config, redis, profilerParts, log) : null;
  const security = createDemoSecurity();
  // The profiler's pages exist only with debug: without it /_profiler/... is a plain 404.
  const profilerRoutes =
    profiler === null
      ? []
      : createProfilerRoutes({
          storage: profiler.storage,
          stats: () => profiler.stats(),
          droppedReason: (token) => profiler.writer.droppedReason(token),
          panels: profiler.panels,
        });
  const router = new UrlMatcherRouter([...profilerRoutes, ...appRoutes(config.locales, security.verifier)]);
  const kernel = new Kernel({
    defaultLocale: config.defaultLocale,
    errorController: createErrorController({ debug: config.debug }),
    listeners: [
      validateRequestListener,
      createLocaleListener({ enabledLocales: config.locales, defaultLocale: config.defaultLocale }),
      createRouterListener(router),
      ...(profilerAccessListener === null ? [] : [profilerAccessListener]),
      viewListener,
      responseListener,
      ...(config.debug ? [disallowRobotsIndexingListener] : []),
      ...(profiler?.listeners ?? []),
      createErrorListener({ debug: config.debug }),
      createSessionListener({
        storage: new RedisSessionStorage(redis, { prefix: config.redisPrefix, lifetime: config.sessionLifetime }),
        cookieName: 'LOUPESESSID',
        // A browser-session cookie: Redis expires idle sessions (see SessionListenerOptions.lifetime).
        lifetime: 0,
        onError: (error) => log(`Session not saved: ${error instanceof Error ? error.message : String(error)}`),
      }),
      createRememberMeListener({
        secret: config.secret,
        lifetime: config.rememberMeLifetime,
        cookieName: 'LOUPE_REMEMBERME',
        users: security.users,
        firewalls: security.firewalls,
      }),
      createFirewallListener({ firewalls: security.firewalls, verifier: security.verifier }),
    ],
    onCrash: (error) => log(`Request actor crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const server = new UwsServer(
    kernel,
    {
      host: config.host,
      port: config.port,
      maxBodySize: config.maxBodySize,
      onError: (error) => log(`Request failed outside the kernel: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    },
    uws,
  );
  let port: number;
  try {
    port = await server.listen();
  } catch (error) {
    await profiler?.close();
    redis.disconnect();
    throw error;
  }
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    kernel,
    redis,
    profiler,
    close: async () => {
      await server.close();
      await profiler?.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
