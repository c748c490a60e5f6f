import { isIP } from 'node:net';

const COLON = 0x3a;
const MAX_PORT = 65_535;

/**
 * Where the port of a Host header value starts (the index of its `:`), the value's length when it
 * names no port, or -1 when what follows the host is not a port. RFC 9110 §7.2 and RFC 3986
 * §3.2.2-3.2.3: `Host = uri-host [ ":" port ]`, `port = *DIGIT`, and only a bracketed IP literal
 * holds colons; RFC 9112 §3.2 answers an invalid Host with a 400. Symfony's `Request::getHost()`
 * only strips a `:\d+$` suffix, so `127.0.0.1:8400.evil.test` stays a host there (and its
 * `getPort()` reads 8400); Loupe refuses it, as a host check that cut at the colon would read it
 * as 127.0.0.1. An empty port is the scheme's default (RFC 3986 §6.2.3); one above 65535 names
 * no TCP port. A bare IPv6 address (`::1`) is taken whole, as Symfony and clients that forget
 * the brackets do.
 */
export function hostPortSeparator(host: string): number {
  let separator: number;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close === -1 || close === host.length - 1) return host.length;
    if (host.charCodeAt(close + 1) !== COLON) return -1;
    separator = close + 1;
  } else {
    separator = host.indexOf(':');
    if (separator === -1) return host.length;
    if (host.indexOf(':', separator + 1) !== -1) return isIP(host) === 6 ? host.length : -1;
  }
  let port = 0;
  for (let index = separator + 1; index < host.length; index++) {
    const digit = host.charCodeAt(index) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    port = port * 10 + digit;
    if (port > MAX_PORT) return -1;
  }
  return separator;
}
