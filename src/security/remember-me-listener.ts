import { serializeCookie } from '../http/cookies';
import { type RequestEvent } from '../kernel/event/request-event';
import { type ResponseEvent } from '../kernel/event/response-event';
import { KernelAttributes } from '../kernel/kernel-attributes';
import { defineListener, type Listener } from '../kernel/listener';
import { type FirewallMap } from './firewall-map';
import { RememberMeSigner } from './remember-me-signer';
import { SecurityAttributes } from './security-attributes';
import { type UserProvider } from './user-provider';

export interface RememberMeListenerOptions {
  /** Signs the cookies (the application secret). */
  readonly secret: string;
  /** Seconds a cookie stays valid. */
  readonly lifetime: number;
  readonly cookieName: string;
  readonly users: UserProvider;
  /** Remember-me applies on the firewalls that enable it. */
  readonly firewalls: FirewallMap;
  /** Epoch milliseconds; tests move the clock. */
  readonly now?: () => number;
}

/**
 * Remember-me (Symfony's RememberMeAuthenticator): kernel.request (9, just before the
 * firewall's access check at 8) authenticates from a signed cookie when no credentials were
 * sent; a rejected cookie is cleared. kernel.response (-900, before the session listener at
 * -1000) sets the cookie when a login asked for it.
 */
export function createRememberMeListener(options: RememberMeListenerOptions): Listener {
  const { cookieName, lifetime, users, firewalls } = options;
  const signer = new RememberMeSigner(options.secret);
  const now = options.now ?? Date.now;
  const bindingOf = (identifier: string): string | null => users.loadUser(identifier)?.passwordHash ?? null;

  const authenticate = (event: RequestEvent): void => {
    const { request } = event;
    if (!event.isMainRequest || event.user !== null || request.header('authorization') !== undefined) return;
    const token = request.cookies[cookieName];
    if (token === undefined || firewalls.match(request.path)?.rememberMe !== true) return;
    const check = signer.check(token, Math.floor(now() / 1000), bindingOf);
    const user = check.valid ? users.loadUser(check.payload.u) : null;
    if (!check.valid || user === null) {
      event.attributes.set(SecurityAttributes.REMEMBER_ME_CLEAR, true);
      event.log('info', 'Remember-me cookie rejected.', { reason: check.valid ? 'unknown_user' : check.reason });
      return;
    }
    event.attributes.set(KernelAttributes.USER, { identifier: user.identifier, roles: user.roles, via: 'remember_me' });
    event.log('info', `Authenticated "${user.identifier}" with a remember-me cookie.`);
  };

  const writeCookie = (event: ResponseEvent): void => {
    const { response, attributes } = event;
    if (!event.isMainRequest) return;
    const requested = attributes.get(SecurityAttributes.REMEMBER_ME_REQUESTED);
    const user = requested === undefined ? null : users.loadUser(requested);
    if (user !== null) {
      const expiresAt = Math.floor(now() / 1000) + lifetime;
      const value = signer.sign({ u: user.identifier, e: expiresAt }, user.passwordHash);
      response.headers.append('Set-Cookie', serializeCookie(cookieName, value, { maxAge: lifetime }));
    } else if (attributes.has(SecurityAttributes.REMEMBER_ME_CLEAR)) {
      response.headers.append('Set-Cookie', serializeCookie(cookieName, '', { maxAge: 0 }));
    }
  };

  return defineListener('RememberMeListener', {
    'kernel.request': [9, authenticate],
    'kernel.response': [-900, writeCookie],
  });
}
