import { isIP } from 'node:net';
import { hostPortSeparator } from '../../http/host-port-separator';

/**
 * The host name of a Host header or an Origin's host, without its port, lower case; `[::1]` gives
 * `::1`. A Host whose port is not one gives `''`, which no rule allows: cut at its colon,
 * `127.0.0.1:8400.evil.test` would read as an IP address.
 */
function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  const separator = hostPortSeparator(value);
  if (separator === -1) return '';
  const name = value.slice(0, separator);
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
}

/**
 * Which hosts the profiler answers for (Symfony's `trusted_hosts` idea): an IP address, `localhost`
 * (and `*.localhost`, which resolves to loopback), or a name of PROFILER_ALLOWED_HOSTS (`.example.test`
 * also allows its subdomains). A page of an attacker's domain whose name was rebound to 127.0.0.1
 * (DNS rebinding) sends its own name as Host and is refused, although the address is loopback.
 */
export function createHostMatcher(allowedHosts: readonly string[]): (host: string) => boolean {
  const names = allowedHosts.map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  return (host) => {
    const name = hostName(host);
    if (name === '') return false;
    if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
    return names.some((allowed) => (allowed.startsWith('.') ? name.endsWith(allowed) || name === allowed.slice(1) : name === allowed));
  };
}

/**
 * The host of an Origin header (`http://host:port`), or `null` when it is not an http(s) origin
 * with a host. A page from a file or a sandboxed frame sends `null` (RFC 6454 §7.3) and Chrome
 * sends `file://`: both are pages, of no origin the profiler serves, not a client without one.
 */
export function originHost(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' ? url.host : null;
}
