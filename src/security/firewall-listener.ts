import { AuthenticationHttpError, ForbiddenHttpError } from '../errors/http-error';
import { type RequestEvent } from '../kernel/event/request-event';
import { KernelAttributes } from '../kernel/kernel-attributes';
import { defineListener, type Listener } from '../kernel/listener';
import { isBasicAuthorization, parseBasicCredentials, type BasicCredentials } from './basic-credentials';
import { type CredentialsVerifier } from './credentials-verifier';
import { type FirewallConfig, type FirewallMap } from './firewall-map';
import { SecurityAttributes } from './security-attributes';
import { type SecurityUser } from './user-provider';

export interface FirewallListenerOptions {
  readonly firewalls: FirewallMap;
  /** Checks passwords; throttles failures when it was given a LoginThrottle. */
  readonly verifier: CredentialsVerifier;
}

function challenge(firewall: FirewallConfig): string {
  return `Basic realm="${firewall.httpBasicRealm ?? firewall.name}"`;
}

function authenticated(event: RequestEvent, firewall: FirewallConfig, user: SecurityUser): void {
  event.attributes.set(KernelAttributes.USER, { identifier: user.identifier, roles: user.roles, via: 'http_basic' });
  event.log('info', `Authenticated "${user.identifier}" with HTTP Basic.`, { firewall: firewall.name });
}

function refused(event: RequestEvent, firewall: FirewallConfig): never {
  event.log('info', 'HTTP Basic authentication failed.', { firewall: firewall.name });
  throw new AuthenticationHttpError('Invalid credentials.', challenge(firewall));
}

/** Access control: no user gets the Basic challenge (401); a user without any required role, 403. */
function checkAccess(event: RequestEvent, firewalls: FirewallMap, firewall: FirewallConfig): void {
  const required = firewalls.requiredRoles(firewall, event.request.path);
  if (required.length === 0) return;
  const { user } = event;
  if (user === null) throw new AuthenticationHttpError('Full authentication is required to access this resource.', challenge(firewall));
  if (!required.some((role) => user.roles.includes(role))) {
    event.log('info', `Access denied: "${user.identifier}" lacks ${required.join(' or ')}.`, { firewall: firewall.name });
    throw new ForbiddenHttpError();
  }
}

/**
 * HTTP Basic (RFC 7617) with scrypt off the event loop: a wrong password costs its sender the
 * wait, nobody else; after repeated failures the verifier answers 429 without any check.
 */
async function authenticateBasic(event: RequestEvent, firewalls: FirewallMap, firewall: FirewallConfig, verifier: CredentialsVerifier, credentials: BasicCredentials): Promise<void> {
  const user = await verifier.verify(credentials.identifier, credentials.password, event.request.data.remoteAddress);
  if (user === null) refused(event, firewall);
  authenticated(event, firewall, user);
  checkAccess(event, firewalls, firewall);
}

/**
 * The security firewall (Symfony's Firewall, kernel.request 8, after routing and after the
 * remember-me listener at 9): finds the request's firewall, authenticates HTTP Basic, then
 * applies access control. Credentials are checked asynchronously and the phase waits for them:
 * even those verified recently, which the verifier's cache answers only after the login throttle
 * (one Redis round trip) has said the client is not locked out.
 */
export function createFirewallListener(options: FirewallListenerOptions): Listener {
  const { firewalls, verifier } = options;
  return defineListener('Firewall', {
    'kernel.request': [
      8,
      (event) => {
        if (!event.isMainRequest) return;
        const firewall = firewalls.match(event.request.path);
        if (firewall === null) return;
        event.attributes.set(SecurityAttributes.FIREWALL, firewall.name);
        if (!firewall.security) return;
        const header = event.request.header('authorization');
        if (firewall.httpBasicRealm !== undefined && isBasicAuthorization(header)) {
          const credentials = parseBasicCredentials(header);
          if (credentials === null) refused(event, firewall);
          // Always through verify(): the throttle must answer before the cache of verified credentials.
          return authenticateBasic(event, firewalls, firewall, verifier, credentials);
        }
        checkAccess(event, firewalls, firewall);
        return undefined;
      },
    ],
    'kernel.finish_request': [
      0,
      ({ attributes }) => {
        attributes.delete(SecurityAttributes.FIREWALL);
      },
    ],
  });
}
