/** Roles a path requires (Symfony's access_control entry); any one of them grants access. */
export interface AccessRule {
  /** Tested against the percent-decoded path, e.g. `/^\/admin/`. */
  readonly path: RegExp;
  /** The roles that grant access, e.g. `['ROLE_ADMIN']`; empty leaves the path open. */
  readonly roles: readonly string[];
}

/** One firewall: the paths it covers and how it authenticates. */
export interface FirewallConfig {
  /** Names the firewall in log entries and in SecurityAttributes.FIREWALL, e.g. `main`. */
  readonly name: string;
  /** Tested against the percent-decoded path, as Symfony's request matcher does. */
  readonly pattern: RegExp;
  /** `false` turns security off for these paths (the profiler's own pages). */
  readonly security: boolean;
  /** The realm of the HTTP Basic challenge; no HTTP Basic when absent. */
  readonly httpBasicRealm?: string;
  /** True when remember-me cookies authenticate on this firewall. */
  readonly rememberMe?: boolean;
  /** Checked in order; the first rule whose path matches applies. */
  readonly accessControl?: readonly AccessRule[];
}

/** The path as the rules see it: `/%61dmin` must not slip past `^/admin`. */
export function decodePath(path: string): string {
  // Most paths have nothing to decode; decodeURIComponent would copy them.
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The firewalls in order; a request belongs to the first whose pattern matches (Symfony's FirewallMap). */
export class FirewallMap {
  readonly firewalls: readonly FirewallConfig[];

  constructor(firewalls: readonly FirewallConfig[]) {
    this.firewalls = Object.freeze([...firewalls]);
  }

  /** The firewall of the raw (percent-encoded) `path`, or `null` when none covers it. */
  match(path: string): FirewallConfig | null {
    const decoded = decodePath(path);
    return this.firewalls.find((firewall) => firewall.pattern.test(decoded)) ?? null;
  }

  /** The roles `path` requires on `firewall`, any one of which grants access; empty when open. */
  requiredRoles(firewall: FirewallConfig, path: string): readonly string[] {
    const decoded = decodePath(path);
    return firewall.accessControl?.find((rule) => rule.path.test(decoded))?.roles ?? [];
  }
}
