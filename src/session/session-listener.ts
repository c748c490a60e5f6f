import { ServiceUnavailableHttpError } from '../errors/http-error';
import { serializeCookie } from '../http/cookies';
import { attributeKey } from '../kernel/attributes';
import { type ResponseEvent } from '../kernel/event/response-event';
import { KernelAttributes } from '../kernel/kernel-attributes';
import { defineListener, type Listener } from '../kernel/listener';
import { LazySession } from './lazy-session';
import { applySessionCacheControl } from './session-cache-control';
import { type SessionStorage } from './session-storage';

/** Internal response header: when present, a used session does not make the response private. Never sent. */
export const NO_AUTO_CACHE_CONTROL_HEADER = 'Loupe-Session-NoAutoCacheControl';

/** Set once the session's save was attempted: an error page rendered after a failed save does not save again. */
const SAVE_ATTEMPTED = attributeKey<true>('session.save_attempted');

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
}

/**
 * Sessions (Symfony's SessionListener): kernel.request (128) gives the main request a lazy
 * session; kernel.response (-1000, last) sets the cookie, keeps caches out and saves the session
 * before the response is sent: a session that cannot be saved makes the answer a 503, never a
 * 200 that silently lost what it said it stored.
 */
export function createSessionListener(options: SessionListenerOptions): Listener {
  const { storage, cookieName, lifetime } = options;
  const cookieOptions = lifetime > 0 ? { maxAge: lifetime } : {};

  const onResponse = (event: ResponseEvent): Promise<void> | undefined => {
    const { response, session, attributes } = event;
    if (!event.isMainRequest) return undefined;
    const autoCacheControl = !response.headers.has(NO_AUTO_CACHE_CONTROL_HEADER);
    response.headers.delete(NO_AUTO_CACHE_CONTROL_HEADER);
    if (!(session instanceof LazySession) || !session.isStarted || session.id === null || attributes.has(SAVE_ATTEMPTED)) return undefined;
    attributes.set(SAVE_ATTEMPTED, true);
    const { id, requestId } = session;
    if (session.isEmpty) {
      // Symfony clears the cookie of a session that became empty, and never sets one for it.
      if (requestId !== null) response.headers.append('Set-Cookie', serializeCookie(cookieName, '', { maxAge: 0 }));
    } else if (session.usageCount > 0 && id !== requestId) {
      response.headers.append('Set-Cookie', serializeCookie(cookieName, id, cookieOptions));
    }
    if (session.usageCount > 0 && autoCacheControl) applySessionCacheControl(response);
    return session.save().catch((error: unknown) => {
      throw new ServiceUnavailableHttpError('The session could not be saved; nothing this request changed in it was kept. Try again shortly.', { code: 'LOUPE_ERR_SESSION_NOT_SAVED', cause: error });
    });
  };

  return defineListener('SessionListener', {
    'kernel.request': [
      128,
      ({ isMainRequest, request, attributes, stopwatch }) => {
        if (!isMainRequest) return;
        attributes.set(KernelAttributes.SESSION, new LazySession(storage, request.cookies[cookieName] ?? null, stopwatch));
      },
    ],
    'kernel.response': [-1000, onResponse],
    'kernel.finish_request': [
      0,
      ({ isMainRequest, attributes }) => {
        // A sub-request (the error page) never has a session of its own; the main one keeps its
        // session until the trace is stored, so the profiler can still describe it.
        if (!isMainRequest) attributes.delete(KernelAttributes.SESSION);
      },
    ],
  });
}
