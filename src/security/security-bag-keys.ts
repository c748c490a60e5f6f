/** Keys of the per-request state the security listeners and the login controller share in `exchange.bag`. */
export const SecurityBagKeys = {
  /** The name of the firewall the request belongs to; removed at kernel.finish_request. */
  FIREWALL: 'security.firewall',
  /** The identifier of a user who asked to be remembered; kernel.response sets the cookie. */
  REMEMBER_ME_REQUESTED: 'remember_me.requested',
  /** Set when the request's remember-me cookie was rejected; kernel.response clears it. */
  REMEMBER_ME_CLEAR: 'remember_me.clear',
} as const;
