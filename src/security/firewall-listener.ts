import { ForbiddenHttpError, UnauthorizedHttpError } from '../errors/http-error';
import { type Exchange } from '../kernel/exchange';
import { type Listener } from '../kernel/listener';
import { isBasicAuthorization, parseBasicCredentials } from './basic-credentials';
import { type CredentialsVerifier } from './credentials-verifier';
import { type FirewallConfig, type FirewallMap } from './firewall-map';
import { SecurityBagKeys } from './security-bag-keys';

export interface FirewallListenerOptions {
  readonly firewalls: FirewallMap;
  readonly verifier: CredentialsVerifier;
}

function challenge(firewall: FirewallConfig): string {
  return `Basic realm="${firewall.httpBasicRealm ?? firewall.name}"`;
}

/** HTTP Basic (RFC 7617): a wrong password is refused at once, on any path of the firewall. */
function authenticateBasic(exchange: Exchange, firewall: FirewallConfig, verifier: CredentialsVerifier): void {
  const header = exchange.request.header('authorization');
  if (firewall.httpBasicRealm === undefined || !isBasicAuthorization(header)) return;
  const credentials = parseBasicCredentials(header);
  const user = credentials === null ? null : verifier.verifySync(credentials.identifier, credentials.password);
  if (user === null) {
    exchange.trace.log('info', 'HTTP Basic authentication failed.', { firewall: firewall.name });
    throw new UnauthorizedHttpError('Invalid credentials.', challenge(firewall));
  }
  exchange.user = { identifier: user.identifier, roles: user.roles, via: 'http_basic' };
  exchange.trace.log('info', `Authenticated "${user.identifier}" with HTTP Basic.`, { firewall: firewall.name });
}

/**
 * The security firewall (Symfony's Firewall, kernel.request 8, after routing and after the
 * remember-me listener at 9): finds the request's firewall, authenticates HTTP Basic, then
 * applies access control — no user: 401 with the Basic challenge; a user without any of the
 * required roles: 403.
 */
export function createFirewallListener(options: FirewallListenerOptions): Listener {
  const { firewalls, verifier } = options;
  return {
    name: 'Firewall',
    subscriptions: {
      'kernel.request': {
        priority: 8,
        handle: (exchange) => {
          if (!exchange.isMainRequest) return;
          const { path } = exchange.request;
          const firewall = firewalls.match(path);
          if (firewall === null) return;
          exchange.bag.set(SecurityBagKeys.FIREWALL, firewall.name);
          if (!firewall.security) return;
          authenticateBasic(exchange, firewall, verifier);
          const required = firewalls.requiredRoles(firewall, path);
          if (required.length === 0) return;
          const { user } = exchange;
          if (user === null) {
            throw new UnauthorizedHttpError('Full authentication is required to access this resource.', challenge(firewall));
          }
          if (!required.some((role) => user.roles.includes(role))) {
            exchange.trace.log('info', `Access denied: "${user.identifier}" lacks ${required.join(' or ')}.`, { firewall: firewall.name });
            throw new ForbiddenHttpError();
          }
        },
      },
      'kernel.finish_request': {
        priority: 0,
        handle: (exchange) => {
          exchange.bag.delete(SecurityBagKeys.FIREWALL);
        },
      },
    },
  };
}
