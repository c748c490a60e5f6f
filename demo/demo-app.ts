import { createLoupe, CredentialsVerifier, InMemoryUserProvider, ProfilerPaths, readConfig, type Config, type Logger, type Loupe, type LoupeOptions } from '../src';
import { DEMO_FIREWALLS } from './firewalls';
import { demoRoutes } from './routes';
import { DEMO_USERS } from './users';

/** What may be added to the demo, as another application would: its own collectors, panels and listeners. */
export type DemoExtras = Pick<LoupeOptions, 'collectors' | 'panels' | 'listeners'>;

/** The demo application: a few routes, users and firewalls on Loupe, as any application builds one. */
export function createDemoApp(config: Config = readConfig(), logger?: Logger, extras: DemoExtras = {}): Loupe {
  const users = new InMemoryUserProvider(DEMO_USERS);
  const verifier = new CredentialsVerifier(users);
  return createLoupe({
    config,
    routes: demoRoutes(config.locale.enabledLocales, verifier, config.debug ? ProfilerPaths.HOME : null),
    security: { firewalls: DEMO_FIREWALLS, users, verifier },
    ...extras,
    ...(logger === undefined ? {} : { logger }),
  });
}
