import { CredentialsVerifier } from './credentials-verifier';
import { createDemoFirewallMap } from './demo-firewalls';
import { DEMO_USERS } from './demo-users';
import { type FirewallMap } from './firewall-map';
import { InMemoryUserProvider, type UserProvider } from './user-provider';

/** The demo application's security services, shared by the listeners and the login controller. */
export interface DemoSecurity {
  readonly users: UserProvider;
  readonly verifier: CredentialsVerifier;
  readonly firewalls: FirewallMap;
}

/** Builds the demo's user provider, credentials verifier (with its cache) and firewall map. */
export function createDemoSecurity(): DemoSecurity {
  const users = new InMemoryUserProvider(DEMO_USERS);
  return { users, verifier: new CredentialsVerifier(users), firewalls: createDemoFirewallMap() };
}
