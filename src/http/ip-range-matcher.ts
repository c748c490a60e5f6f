import { LoupeError } from '../errors/loupe-error';

/** An address as bytes: 4 for IPv4 (IPv4-mapped IPv6 included), 16 for IPv6. */
type AddressBytes = readonly number[];

interface IpRange {
  readonly bytes: AddressBytes;
  readonly prefix: number;
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : null;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups = text.split(':');
  return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)) ? groups.map((group) => parseInt(group, 16)) : null;
}

function parseIpv6(text: string): number[] | null {
  let body = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  // A dotted IPv4 tail (`::ffff:127.0.0.1`) stands for the last two groups.
  let ipv4: number[] | null = null;
  const tail = body.slice(body.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    ipv4 = parseIpv4(tail);
    if (ipv4 === null) return null;
    body = `${body.slice(0, body.length - tail.length)}0:0`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const left = parseGroups(halves[0] ?? '');
  const right = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (left === null || right === null) return null;
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  const bytes = groups.flatMap((group) => [group >> 8, group & 0xff]);
  if (ipv4 !== null) bytes.splice(12, 4, ...ipv4);
  return bytes;
}

/** `::ffff:a.b.c.d` is the IPv4 address a.b.c.d (how a dual-stack socket reports IPv4 peers). */
function isIpv4Mapped(bytes: AddressBytes): boolean {
  return bytes.length === 16 && bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** The address as bytes, IPv4-mapped IPv6 reduced to IPv4; `null` when it is no IP address. */
export function parseIpAddress(text: string): AddressBytes | null {
  const trimmed = text.trim();
  const bytes = trimmed.includes(':') ? parseIpv6(trimmed) : parseIpv4(trimmed);
  if (bytes === null) return null;
  return isIpv4Mapped(bytes) ? bytes.slice(12) : bytes;
}

function parseRange(text: string): IpRange | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return null;
  const raw = address.includes(':') ? parseIpv6(address) : parseIpv4(address);
  if (raw === null) return null;
  const bits = raw.length * 8;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) return null;
  // `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8.
  if (isIpv4Mapped(raw) && prefix >= 96) return { bytes: raw.slice(12), prefix: prefix - 96 };
  return { bytes: raw, prefix };
}

function contains(range: IpRange, address: AddressBytes): boolean {
  if (range.bytes.length !== address.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const left = Math.min(8, range.prefix - bit);
    const mask = (0xff << (8 - left)) & 0xff;
    const index = bit / 8;
    if (((range.bytes[index] ?? 0) & mask) !== ((address[index] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * A predicate telling whether an address (IPv4, IPv6, or IPv4-mapped IPv6 as `::ffff:127.0.0.1`)
 * lies in one of `ranges`: CIDR ranges (`127.0.0.0/8`, `::1/128`) or single addresses.
 * Ranges are checked once, here: an invalid one throws LOUPE_ERR_CONFIG_INVALID. An address
 * that cannot be parsed is in no range.
 */
export function createIpRangeMatcher(ranges: readonly string[]): (address: string) => boolean {
  const parsed = ranges.map((text) => {
    const range = parseRange(text);
    if (range === null) {
      throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid IP range "${text}": expected an address or a CIDR range such as 127.0.0.0/8 or ::1/128.`);
    }
    return range;
  });
  // A server's clients are few and come back request after request: the last answer is kept.
  let lastAddress: string | null = null;
  let lastAnswer = false;
  return (address) => {
    if (address === lastAddress) return lastAnswer;
    const bytes = parseIpAddress(address);
    lastAnswer = bytes !== null && parsed.some((range) => contains(range, bytes));
    lastAddress = address;
    return lastAnswer;
  };
}
