import { createLoupe, CredentialsVerifier, InMemoryUserProvider, readConfig, type Config, type Loupe } from '../src';
import { DEMO_FIREWALLS } from './firewalls';
import { demoRoutes } from './routes';
import { DEMO_USERS } from './users';

/** The demo application: a few routes, users and firewalls on Loupe, as any application builds one. */
export function createDemoApp(config: Config = readConfig(), log?: (line: string) => void): Loupe {
  const users = new InMemoryUserProvider(DEMO_USERS);
  const verifier = new CredentialsVerifier(users);
  return createLoupe({
    config,
    routes: demoRoutes(config.locale.enabledLocales, verifier),
    security: { firewalls: DEMO_FIREWALLS, users, verifier },
    ...(log === undefined ? {} : { log }),
  });
}
