import { rawUrlEncode } from '../../http/raw-url-encode';
import { SecretNames } from './secret-names';

/** What replaces a secret in a stored profile. */
export const REDACTED = '******';

/** What a RedactionPolicy hides besides its built-in secret names (`password`, `token`, `Authorization`…). */
export interface RedactionOptions {
  /** Name patterns added to the built-in ones (PROFILER_REDACT), e.g. `ssn`, `card-number`, `*iban*`. */
  readonly names?: readonly string[];
  /** Cookies whose values a profile shows (PROFILER_COOKIE_ALLOWLIST); every other cookie's is replaced. */
  readonly visibleCookies?: readonly string[];
}

/** Secret whatever they are called: credentials and cookies (RFC 9110 §11.6, RFC 6265 §4). */
const ALWAYS_SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Named like secrets, never one: the profile's own token and its link. */
const NEVER_SECRET_HEADERS = new Set(['x-debug-token', 'x-debug-token-link', 'x-previous-debug-token']);
/** CORS headers (`Access-Control-Allow-Origin`…) say who may read, they hold no credential. */
const CORS_HEADER = 'access-control-';

const MAX_DEPTH = 8;
const MAX_STRING = 4_096;
const MAX_ITEMS = 200;
/** How many times a value may be URL-encoded inside another before it is no longer decoded to look inside. */
const MAX_ENCODINGS = 3;
/** Deeper than any profile a collector writes; only guards against a cycle. */
const MAX_PROFILE_DEPTH = 64;

/** `name=value`, as in a query string, a form body, a cookie line or a log message. */
const PAIR = /(^|[^\w.%+\-[\]])([\w.%+\-[\]]+)=([^&#\s"'<>;]*)/g;
/** `"name": value`, as in JSON that a message quotes. */
const QUOTED = /(["'])([\w.%+\-[\]]{1,100})\1(\s*:\s*)("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[^\s,{}[\]"']+)/g;
/** The password of `scheme://user:password@host` (from the `//`: a scheme has nothing to hide). */
const USERINFO = /(\/\/[^\s/?#@"'<>:]{0,256}:)([^\s/?#@"'<>]{1,256})@/g;

/**
 * A credential after its auth scheme (RFC 9110 §11.4), wherever a text quotes it: `Bearer x`,
 * `Authorization: Basic x`, `ApiKey x`, DRF's `Token x`. The credential is a token68; what comes
 * after it must not continue it, so an auth-param (`Bearer realm="x"`) is not taken for one.
 */
const AUTH_SCHEME = /\b(bearer|basic|token|api[-_]?key)( +)([A-Za-z0-9._~+/-]+=*)(?![\w.~+/=-])/gi;
/** What AUTH_SCHEME needs, after a space (a search far cheaper than this test, which most texts fail). */
const AUTH_SCHEME_HINT = /(?:bearer|basic|token|api[-_]?key) /i;
/**
 * What makes the word after a scheme a credential rather than prose (`basic usage`, `Basic
 * authentication`, `token expired`): a digit or token68 punctuation, mixed case inside the word
 * (base64: `dXNlcjpwYXNz`), or a length no word of prose has. Padding (`=`) does not count.
 */
const CREDENTIAL_LIKE = /[\d._~+/-]|[a-z][A-Z]|^[^=]{20}/;

/** What every pattern above needs: most strings of a profile (names, phases, paths) have none of it. */
const MIGHT_HIDE_A_SECRET = /[=@%]|["']\s*:/;
const mightHideASecret = (text: string): boolean => MIGHT_HIDE_A_SECRET.test(text) || (text.includes(' ') && AUTH_SCHEME_HINT.test(text));
/** What QUOTED needs. */
const QUOTE_COLON = /["']\s*:/;
/** The characters of a name in PAIR and QUOTED (`[\w.%+\-[\]]`), by character code. */
const NAME_CHARACTERS = new Uint8Array(128).map((_, code) => (/[\w.%+\-[\]]/.test(String.fromCharCode(code)) ? 1 : 0));
const isNameCharacter = (code: number): boolean => code < 128 && NAME_CHARACTERS[code] === 1;
/** Longest secret-free text remembered as such, and how many are (all forgotten when full). */
const MAX_REMEMBERED_LENGTH = 1_024;
const MAX_REMEMBERED = 2_000;

/** Decodes every well-formed `%XX` run and leaves a malformed one as it is. */
function decodeLoosely(text: string): string {
  // Most names and values have no `%`: a search is cheaper than the regular expression.
  if (!text.includes('%')) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function hasToJson(value: object): value is { toJSON(): unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function truncate(text: string): string {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;
}

/**
 * The one place that decides what a profile may keep: every value the profiler records
 * (collector entries, log records and their contexts, headers, error messages) passes
 * through it. Names are matched by part (see SecretNames); cookies are secret unless allowed.
 */
export class RedactionPolicy {
  readonly #names: SecretNames;
  readonly #visibleCookies: ReadonlySet<string>;
  /**
   * Texts that might have hidden a secret and were found to hide none (so they are kept as they
   * are): the same header values, messages and URLs come back request after request, and the
   * last pass over a profile sees again every text a collector redacted. Never a text that
   * held a secret; bounded, as SecretNames' cache.
   */
  readonly #clean = new Set<string>();

  /** An invalid name pattern throws LOUPE_ERR_CONFIG_INVALID. */
  constructor(options: RedactionOptions = {}) {
    this.#names = new SecretNames(options.names ?? []);
    this.#visibleCookies = new Set(options.visibleCookies ?? []);
  }

  /** True when `name` (a field, parameter, header or cookie name) names a secret. */
  isSecretName(name: string): boolean {
    return this.#names.test(name);
  }

  /** True when some word of `text` (a body that is not JSON nor a form) names a secret. */
  mentionsSecret(text: string): boolean {
    return this.#names.test(text);
  }

  /** True when the header `name` holds a secret: Authorization, Cookie…, or named like one. */
  isSecretHeader(name: string): boolean {
    const lower = name.toLowerCase();
    if (ALWAYS_SECRET_HEADERS.has(lower)) return true;
    if (NEVER_SECRET_HEADERS.has(lower) || lower.startsWith(CORS_HEADER)) return false;
    return this.#names.test(name);
  }

  /**
   * `text` with the values of secret-named `name=value` pairs (a URL's query, wherever the URL
   * is), of secret-named `"name": value` pairs, of URL passwords (`//user:password@`) and the
   * credentials after an auth scheme (`Bearer x`, `Basic x`, `ApiKey x`) replaced; also when
   * URL-encoded inside it (a `?next=` URL, an X-Debug-Exception header).
   */
  text(text: string): string {
    if (!mightHideASecret(text) || this.#clean.has(text)) return text;
    const out = this.#text(text, 0);
    if (out === text && text.length <= MAX_REMEMBERED_LENGTH) {
      if (this.#clean.size >= MAX_REMEMBERED) this.#clean.clear();
      this.#clean.add(text);
    }
    return out;
  }

  /** `text` redacted, `text` being one that MIGHT_HIDE_A_SECRET. */
  #text(text: string, encodings: number): string {
    // Each pattern runs only where what it needs is there: most texts (a Server-Timing value,
    // a log message) have `=` but no `@`, no quoted name, no `%` and no secret name.
    let out = text;
    if (out.includes('@')) out = out.replace(USERINFO, `$1${REDACTED}@`);
    if (AUTH_SCHEME_HINT.test(out)) {
      out = out.replace(AUTH_SCHEME, (all, scheme: string, blank: string, credential: string) =>
        CREDENTIAL_LIKE.test(credential.replace(/=+$/, '')) ? `${scheme}${blank}${REDACTED}` : all,
      );
    }
    if (QUOTE_COLON.test(out)) {
      out = out.replace(QUOTED, (all, quote: string, name: string, colon: string) => (this.#names.test(decodeLoosely(name)) ? `${quote}${name}${quote}${colon}"${REDACTED}"` : all));
    }
    const encoded = out.includes('%');
    if (encoded || this.#namesASecret(out)) {
      out = out.replace(PAIR, (all, before: string, name: string, value: string) => {
        if (value === '') return all;
        if (this.#names.test(decodeLoosely(name))) return `${before}${name}=${REDACTED}`;
        return value.includes('%') ? `${before}${name}=${this.#encoded(value, encodings, encodeURIComponent)}` : all;
      });
    }
    if (encoded) out = this.#encoded(out, encodings, rawUrlEncode);
    return out;
  }

  /**
   * True when a name before some `=` of `text` names a secret: without a `%` in the text, what
   * PAIR would replace (every name it matches is the longest run of name characters before a `=`).
   */
  #namesASecret(text: string): boolean {
    for (let equals = text.indexOf('='); equals !== -1; equals = text.indexOf('=', equals + 1)) {
      let start = equals;
      while (start > 0 && isNameCharacter(text.charCodeAt(start - 1))) start--;
      if (start < equals && this.#names.test(text.slice(start, equals))) return true;
    }
    return false;
  }

  /** `encoded` itself, or, when decoding it shows a secret, the redacted text encoded again. */
  #encoded(encoded: string, encodings: number, encode: (text: string) => string): string {
    if (encodings >= MAX_ENCODINGS) return encoded;
    const decoded = decodeLoosely(encoded);
    if (decoded === encoded) return encoded;
    const redacted = mightHideASecret(decoded) ? this.#text(decoded, encodings + 1) : decoded;
    return redacted === decoded ? encoded : encode(redacted);
  }

  /** Headers with secret ones replaced (one replacement per value) and the others' URLs redacted. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string>;
  /** The same for headers that may carry several values (a response's `Set-Cookie`), each redacted alike. */
  headers(headers: Readonly<Record<string, string | readonly string[]>>): Record<string, string | string[]>;
  headers(headers: Readonly<Record<string, string | readonly string[]>>): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined || !Object.hasOwn(headers, name)) continue;
      const secret = this.isSecretHeader(name);
      if (typeof value === 'string') out[name] = secret ? REDACTED : this.text(value);
      else out[name] = value.map((item) => (secret ? REDACTED : this.text(item)));
    }
    return out;
  }

  /**
   * Cookies with every value replaced unless its name is allowed (PROFILER_COOKIE_ALLOWLIST), is
   * not named like a secret, and is not one of `secret` (the session and remember-me cookies).
   */
  cookies(cookies: Readonly<Record<string, string>>, secret: ReadonlySet<string> = new Set()): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(cookies)) {
      out[name] = this.#visibleCookies.has(name) && !secret.has(name) && !this.#names.test(name) ? this.text(value) : REDACTED;
    }
    return out;
  }

  /**
   * A bounded, plain copy of application data (a body, a session, a log context): fields named
   * like secrets replaced, strings redacted as text. Done synchronously when the profile is
   * collected, so no live object outlives the request.
   */
  data(value: unknown, depth = 0): unknown {
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
    if (typeof value === 'string') return truncate(this.text(value));
    if (typeof value === 'function') return '(function)';
    if (typeof value !== 'object') return String(value);
    if (depth >= MAX_DEPTH) return '(too deep)';
    // Objects whose data is not in own enumerable fields: recorded by what they say, not as `{}`.
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? '(invalid date)' : value.toISOString();
    if (value instanceof Error) return { class: value.constructor.name, message: this.data(value.message, depth + 1) };
    if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `(${value.byteLength} bytes)`;
    if (value instanceof Map) return this.data(Object.fromEntries(value), depth);
    if (value instanceof Set) return this.data([...value], depth);
    if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => this.data(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value).slice(0, MAX_ITEMS)) out[key] = this.#names.test(key) ? REDACTED : this.data(item, depth + 1);
    return out;
  }

  /**
   * A collector's entry with every string redacted as text: the last pass before a profile is
   * stored, whatever the collector (Loupe's or an application's) put in it. Only what changes is
   * copied: an entry with nothing to redact comes back as it was given, and the walk allocates
   * nothing until a string changes (it runs over every profile, most of which hold no secret).
   */
  entry(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_PROFILE_DEPTH) return '(too deep)';
    // What JSON would store of a Date (or anything with toJSON), not the `{}` of its own fields.
    if (hasToJson(value)) return this.entry(value.toJSON(), depth + 1);
    return Array.isArray(value) ? this.#entryItems(value, depth) : this.#entryFields(value, depth);
  }

  #entryItems(items: readonly unknown[], depth: number): readonly unknown[] {
    let copy: unknown[] | null = null;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const redacted = this.entry(item, depth + 1);
      if (copy === null && redacted !== item) copy = items.slice(0, i);
      copy?.push(redacted);
    }
    return copy ?? items;
  }

  #entryFields(value: object, depth: number): object {
    const fields = value as Readonly<Record<string, unknown>>;
    let copy: [string, unknown][] | null = null;
    // for…in walks the object's enum cache without allocating; inherited fields are not the entry's.
    for (const key in fields) {
      if (!Object.hasOwn(fields, key)) continue;
      const item = fields[key];
      const redacted = this.entry(item, depth + 1);
      if (copy === null) {
        if (redacted === item) continue;
        copy = this.#fieldsBefore(fields, key, depth);
      }
      copy.push([key, redacted]);
    }
    // fromEntries defines `__proto__` as an own field, as the copy of any other name.
    return copy === null ? value : Object.fromEntries(copy);
  }

  /** The fields before `key`, redacted again: a getter read twice must not slip a secret past the first reading. */
  #fieldsBefore(fields: Readonly<Record<string, unknown>>, key: string, depth: number): [string, unknown][] {
    const before: [string, unknown][] = [];
    for (const kept in fields) {
      if (kept === key) break;
      if (Object.hasOwn(fields, kept)) before.push([kept, this.entry(fields[kept], depth + 1)]);
    }
    return before;
  }
}
