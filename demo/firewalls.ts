import { type FirewallConfig } from '../src';

/** The realm of the demo's HTTP Basic challenge: `WWW-Authenticate: Basic realm="Loupe"`. */
export const DEMO_REALM = 'Loupe';

/**
 * The demo application's firewalls: the profiler and toolbar are not secured (`dev`); everything
 * else (`main`) accepts HTTP Basic and remember-me cookies, and `/admin` requires ROLE_ADMIN.
 */
export const DEMO_FIREWALLS: readonly FirewallConfig[] = [
  { name: 'dev', pattern: /^\/(_profiler|_wdt)/, security: false },
  {
    name: 'main',
    pattern: /^\//,
    security: true,
    httpBasicRealm: DEMO_REALM,
    rememberMe: true,
    accessControl: [{ path: /^\/admin/, roles: ['ROLE_ADMIN'] }],
  },
];
