import { attributeKey } from '../kernel/attributes';

/** The per-request state the security listeners and a login controller share. */
export const SecurityAttributes = {
  /** The name of the firewall the request belongs to; removed at kernel.finish_request. */
  FIREWALL: attributeKey<string>('security.firewall'),
  /** The identifier of a user who asked to be remembered; kernel.response sets the cookie. */
  REMEMBER_ME_REQUESTED: attributeKey<string>('remember_me.requested'),
  /** Set when the request's remember-me cookie was rejected; kernel.response clears it. */
  REMEMBER_ME_CLEAR: attributeKey<true>('remember_me.clear'),
} as const;
