import { type SecurityUser } from '../src';

/**
 * The demo application's users. Demo credentials: `admin` / `loupe` (roles ROLE_ADMIN, ROLE_USER),
 * e.g. `curl -u admin:loupe http://127.0.0.1:8000/admin`. Only the scrypt hash is kept here;
 * make a new one with `hashPassword()` from Loupe.
 */
export const DEMO_USERS: readonly SecurityUser[] = Object.freeze([
  {
    identifier: 'admin',
    passwordHash: 'scrypt$16384$8$1$z3YXWTYvXy11+UWv2t1HYA==$akUnQQKgDaUrQyT6NaZB+w4U9TKrCEQs7MhyIVvewXQ=',
    roles: ['ROLE_ADMIN', 'ROLE_USER'],
  },
]);
