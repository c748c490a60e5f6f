import { html, type SafeHtml } from '../../../view/html';

const VALUE_MAX = 10_000;

/**
 * How loud a status reads, as Symfony's: `error` for 5xx and for no response at all, `warning`
 * for 4xx (the client's mistake, often expected), nothing otherwise.
 */
export function statusLevel(status: number): 'error' | 'warning' | '' {
  if (status >= 500 || status === 0) return 'error';
  return status >= 400 ? 'warning' : '';
}

/** Scheme and authority of an absolute URL. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The path and query of `url` (which host was asked is in the profile), with a line break
 * allowed after each `/`, `?` and `&` only, so that a narrow column never cuts a word.
 */
export function renderUrlPath(url: string): SafeHtml {
  const path = url.replace(ORIGIN, '') || '/';
  return html`${path.split(/(?<=[/?&])/).map((part, index) => (index === 0 ? part : html`<wbr>${part}`))}`;
}

/** Milliseconds for people: `0.42 ms`, `12.3 ms`, `1.25 s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
}

/** An epoch-milliseconds time as ISO 8601 (UTC) and as the HTTP/RFC 2822 style date. */
export function formatTime(epochMs: number): { iso: string; rfc: string } {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return { iso: String(epochMs), rfc: String(epochMs) };
  return { iso: date.toISOString(), rfc: date.toUTCString() };
}

/** Any stored value as text: strings as they are, the rest as indented JSON, bounded. */
export function formatValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = '[unserializable]';
    }
  }
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX)}… (${text.length} characters)` : text;
}
