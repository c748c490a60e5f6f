/** What is wrong with a JSON text, and the byte offset (from 0) where it shows. */
export interface JsonProblem {
  readonly kind: 'malformed' | 'too_deep';
  readonly offset: number;
}

type Expect = 'value' | 'value_or_close' | 'key' | 'key_or_close' | 'colon' | 'comma_or_close';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPABLE = new Set([...'"\\/bfnrt'].map((char) => char.charCodeAt(0)));
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const LITERALS = ['true', 'false', 'null'].map((word) => Buffer.from(word));

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const isHex = (byte: number | undefined): boolean => byte !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(byte));

function skipWhitespace(bytes: Buffer, at: number): number {
  let i = at;
  while (WHITESPACE.has(bytes[i] ?? -1)) i++;
  return i;
}

/** The offset after the string starting at `at` (a quote), or `-1 - offset` of the fault. */
function endOfString(bytes: Buffer, at: number): number {
  let i = at + 1;
  for (;;) {
    const byte = bytes[i];
    if (byte === undefined || byte < 0x20) return -1 - i;
    if (byte === QUOTE) return i + 1;
    if (byte !== BACKSLASH) {
      i++;
      continue;
    }
    const escaped = bytes[i + 1];
    if (escaped === 0x75) {
      for (let k = 2; k < 6; k++) if (!isHex(bytes[i + k])) return -1 - (i + k);
      i += 6;
    } else if (escaped !== undefined && ESCAPABLE.has(escaped)) {
      i += 2;
    } else {
      return -1 - (i + 1);
    }
  }
}

/** The offset after the number starting at `at` (RFC 8259 §6), or `-1 - offset` of the fault. */
function endOfNumber(bytes: Buffer, at: number): number {
  let i = at;
  if (bytes[i] === 0x2d) i++;
  if (bytes[i] === 0x30) i++;
  else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
  else return -1 - i;
  if (bytes[i] === 0x2e) {
    i++;
    if (!isDigit(bytes[i])) return -1 - i;
    while (isDigit(bytes[i])) i++;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
    if (!isDigit(bytes[i])) return -1 - i;
    while (isDigit(bytes[i])) i++;
  }
  return i;
}

/** The offset after the scalar (string, number, literal) starting at `at`, or `-1 - offset` of the fault. */
function endOfScalar(bytes: Buffer, at: number): number {
  const byte = bytes[at];
  if (byte === QUOTE) return endOfString(bytes, at);
  if (byte === 0x2d || isDigit(byte)) return endOfNumber(bytes, at);
  const literal = LITERALS.find((word) => word[0] === byte);
  if (literal === undefined) return -1 - at;
  for (let k = 1; k < literal.length; k++) if (bytes[at + k] !== literal[k]) return -1 - (at + k);
  return at + literal.length;
}

/**
 * Checks a JSON text (RFC 8259) in one linear pass, without recursion, before `JSON.parse`
 * builds it: nesting deeper than `maxDepth` arrays and objects is refused here, because every
 * recursive walk after the parse (the response encoder, the profiler's collectors) would
 * overflow the stack on it. Answers `null` when the text is valid JSON within the depth.
 */
export function findJsonProblem(bytes: Buffer, maxDepth: number): JsonProblem | null {
  const closers: number[] = [];
  let expect: Expect = 'value';
  let i = 0;
  for (;;) {
    i = skipWhitespace(bytes, i);
    const byte = bytes[i];
    const closer = closers[closers.length - 1];
    if (expect === 'comma_or_close') {
      if (closer === undefined) return i === bytes.length ? null : { kind: 'malformed', offset: i };
      if (byte === 0x2c) expect = closer === 0x5d ? 'value' : 'key';
      else if (byte === closer) closers.pop();
      else return { kind: 'malformed', offset: i };
      i++;
    } else if (expect === 'colon') {
      if (byte !== 0x3a) return { kind: 'malformed', offset: i };
      expect = 'value';
      i++;
    } else if ((expect === 'value_or_close' && byte === 0x5d) || (expect === 'key_or_close' && byte === 0x7d)) {
      closers.pop();
      expect = 'comma_or_close';
      i++;
    } else if (expect === 'key' || expect === 'key_or_close') {
      if (byte !== QUOTE) return { kind: 'malformed', offset: i };
      const end = endOfString(bytes, i);
      if (end < 0) return { kind: 'malformed', offset: -1 - end };
      expect = 'colon';
      i = end;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (closers.length >= maxDepth) return { kind: 'too_deep', offset: i };
      closers.push(byte === 0x5b ? 0x5d : 0x7d);
      expect = byte === 0x5b ? 'value_or_close' : 'key_or_close';
      i++;
    } else {
      const end = endOfScalar(bytes, i);
      if (end < 0) return { kind: 'malformed', offset: -1 - end };
      expect = 'comma_or_close';
      i = end;
    }
  }
}
