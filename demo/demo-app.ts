import { createLogger, createLoupe, CredentialsVerifier, InMemoryUserProvider, ProfilerPaths, readConfig, type Config, type Logger, type Loupe, type LoupeOptions } from '../src';
import { type DemoConfig } from './demo-config';
import { DEMO_FIREWALLS } from './firewalls';
import { DemoIo } from './io/demo-io';
import { demoRoutes } from './routes';
import { DEMO_USERS } from './users';

/** What may be added to the demo, as another application would: its own collectors, panels and listeners. */
export type DemoExtras = Pick<LoupeOptions, 'collectors' | 'panels' | 'listeners'>;

/** The demo's extras and its own settings; without `databaseUrl` its SQL routes answer 503. */
export type DemoOptions = DemoExtras & Partial<DemoConfig>;

/**
 * The demo application: a few routes, users and firewalls on Loupe, as any application builds one,
 * and its own I/O (a Redis client, a PostgreSQL pool, an upstream), opened on first use and closed
 * with the application.
 */
export function createDemoApp(config: Config = readConfig(), logger: Logger = createLogger(config.log), options: DemoOptions = {}): Loupe {
  const { databaseUrl = null, ...extras } = options;
  const users = new InMemoryUserProvider(DEMO_USERS);
  const verifier = new CredentialsVerifier(users);
  const io = new DemoIo(config, databaseUrl, (message) => logger.warn(message));
  const app = createLoupe({
    config,
    routes: demoRoutes(config.locale.enabledLocales, verifier, config.debug ? ProfilerPaths.HOME : null, io),
    security: { firewalls: DEMO_FIREWALLS, users, verifier },
    ...extras,
    logger,
  });
  return {
    config: app.config,
    logger: app.logger,
    listen: async () => {
      const listening = await app.listen();
      io.upstream.listeningOn(listening.url);
      // Loupe's own connection to the same Redis just answered; should this one fail, the first lookup says why.
      await io.cache.connect().catch((error: unknown) => logger.warn(`The demo's cache client could not connect yet: ${error instanceof Error ? error.message : String(error)}`));
      return listening;
    },
    inject: (request) => app.inject(request),
    close: async () => {
      try {
        await app.close();
      } finally {
        await io.close();
      }
    },
    listenerTable: () => app.listenerTable(),
    get profiler() {
      return app.profiler;
    },
    get activeRequests() {
      return app.activeRequests;
    },
    get handledRequests() {
      return app.handledRequests;
    },
    whenIdle: () => app.whenIdle(),
  };
}
