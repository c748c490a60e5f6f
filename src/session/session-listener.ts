import { serializeCookie } from '../http/cookies';
import { type Exchange } from '../kernel/exchange';
import { type Listener } from '../kernel/listener';
import { LazySession } from './lazy-session';
import { applySessionCacheControl } from './session-cache-control';
import { type SessionStorage } from './session-storage';

/** Internal response header: when present, a used session does not make the response private. Never sent. */
export const NO_AUTO_CACHE_CONTROL_HEADER = 'Loupe-Session-NoAutoCacheControl';

export interface SessionListenerOptions {
  readonly storage: SessionStorage;
  /** The session cookie, e.g. `LOUPESESSID`. */
  readonly cookieName: string;
  /**
   * Seconds the cookie lives; `0` makes it a browser-session cookie (PHP's default
   * `session.cookie_lifetime`). The cookie is only re-sent when the id changes, so a positive
   * value ends an active session at that age whatever the storage lifetime.
   */
  readonly lifetime: number;
  /** Told when saving a session fails; the request is already answered by then. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Sessions (Symfony's SessionListener): kernel.request (128) gives the main request a lazy
 * session; kernel.response (-1000, last) saves it, sets the cookie and keeps caches out.
 */
export function createSessionListener(options: SessionListenerOptions): Listener {
  const { storage, cookieName, lifetime } = options;
  const cookieOptions = lifetime > 0 ? { maxAge: lifetime } : {};

  const onResponse = (exchange: Exchange): void => {
    const { response, session } = exchange;
    if (!exchange.isMainRequest || response === null) return;
    const autoCacheControl = !response.headers.has(NO_AUTO_CACHE_CONTROL_HEADER);
    response.headers.delete(NO_AUTO_CACHE_CONTROL_HEADER);
    if (!(session instanceof LazySession) || !session.isStarted || session.id === null) return;
    const { id, requestId } = session;
    // Listeners are synchronous: the write is issued now and not awaited. ioredis sends commands
    // of one connection in order, so the next request's read of this session comes after it.
    session.save().catch((error: unknown) => options.onError?.(error));
    if (session.isEmpty) {
      // Symfony clears the cookie of a session that became empty, and never sets one for it.
      if (requestId !== null) response.headers.append('Set-Cookie', serializeCookie(cookieName, '', { maxAge: 0 }));
    } else if (session.usageCount > 0 && id !== requestId) {
      response.headers.append('Set-Cookie', serializeCookie(cookieName, id, cookieOptions));
    }
    if (session.usageCount > 0 && autoCacheControl) applySessionCacheControl(response);
  };

  return {
    name: 'SessionListener',
    subscriptions: {
      'kernel.request': {
        priority: 128,
        handle: (exchange) => {
          if (!exchange.isMainRequest) return;
          exchange.session = new LazySession(storage, exchange.request.cookies[cookieName] ?? null);
        },
      },
      'kernel.response': { priority: -1000, handle: onResponse },
      'kernel.finish_request': {
        priority: 0,
        handle: (exchange) => {
          // A sub-request (the error page) never has a session of its own; the main one keeps its
          // session until the trace is stored, so the profiler can still describe it.
          if (!exchange.isMainRequest) exchange.session = null;
        },
      },
    },
  };
}
