import { type StoredHttpCall } from '../../collect/collectors/app-io-collectors';

/** Words a POSIX shell reads as they are; anything else is single-quoted. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * A word for a POSIX shell: single quotes, in which nothing is special, with each `'` closed,
 * escaped and reopened (`'\''`). A newline stays inside the quotes.
 */
export function shellQuote(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Headers curl computes itself, or that describe a body the profile does not hold. */
const LEFT_OUT: ReadonlySet<string> = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/**
 * The call as a `curl` command line to replay it from a terminal, as Symfony's HttpClient panel
 * offers: method, URL and request headers, each shell-quoted. The profile holds no request body,
 * so a call that sent one is replayed without it; redacted values stay redacted.
 */
export function curlCommand(call: StoredHttpCall): string {
  const words = ['curl'];
  if (call.method !== 'GET') words.push('-X', shellQuote(call.method));
  for (const [name, value] of Object.entries(call.requestHeaders)) {
    if (!LEFT_OUT.has(name.toLowerCase())) words.push('-H', shellQuote(`${name}: ${value}`));
  }
  words.push(shellQuote(call.url));
  return words.join(' ');
}
