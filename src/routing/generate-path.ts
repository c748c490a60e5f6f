import { LoupeError } from '../errors/loupe-error';
import { rawUrlEncode } from '../http/raw-url-encode';
import { type CompiledRoute } from './compiled-route';

/**
 * Characters Symfony's UrlGenerator leaves unencoded in a path after rawurlencode: they are
 * allowed there by RFC 3986 §3.3 and make nicer URLs.
 */
const DECODED_IN_PATH: Readonly<Record<string, string>> = { '%2F': '/', '%40': '@', '%3A': ':', '%3B': ';', '%2C': ',', '%3D': '=', '%2B': '+', '%21': '!', '%2A': '*', '%7C': '|' };

function encodePath(path: string): string {
  let url = rawUrlEncode(path).replace(/%[0-9A-F]{2}/g, (escaped) => DECODED_IN_PATH[escaped] ?? escaped);
  // Dot segments would be resolved away by clients (RFC 3986 §5.2.4); keep them as data.
  if (url.includes('/.')) {
    url = url.replaceAll('/../', '/%2E%2E/').replaceAll('/./', '/%2E/');
    if (url.endsWith('/..')) url = `${url.slice(0, -2)}%2E%2E`;
    else if (url.endsWith('/.')) url = `${url.slice(0, -1)}%2E`;
  }
  return url;
}

/**
 * The path of `route` for `params` (Symfony's UrlGenerator::doGenerate): defaults fill what is
 * missing, the optional tail equal to its defaults is left out, values must meet their
 * requirements, and parameters that are neither placeholders nor defaults go to the query.
 * `fallback` (the request context's `_locale`) applies after defaults, before `params`.
 */
export function generatePath(
  route: CompiledRoute,
  params: Readonly<Record<string, string>>,
  fallback: Readonly<Record<string, string>> = {},
): string {
  const merged: Record<string, string> = { ...route.defaults, ...fallback, ...params };
  const missing = route.variables.filter((variable) => merged[variable] === undefined);
  if (missing.length > 0) {
    throw new LoupeError(
      'LOUPE_ERR_ROUTING_INVALID_ROUTE',
      `Some mandatory parameters are missing ("${missing.join('", "')}") to generate a URL for route "${route.name}".`,
    );
  }
  let path = '';
  let optional = true;
  for (let index = route.tokens.length - 1; index >= 0; index--) {
    const token = route.tokens[index];
    if (token === undefined) continue;
    if (token.kind === 'text') {
      path = token.text + path;
      optional = false;
      continue;
    }
    const value = merged[token.name] ?? '';
    if (optional && index >= route.firstOptional && route.defaults[token.name] === value) continue;
    // Symfony matches requirements case-insensitively when generating.
    if (!new RegExp(`^(?:${token.requirement})$`, 'i').test(value)) {
      throw new LoupeError(
        'LOUPE_ERR_ROUTING_INVALID_ROUTE',
        `Parameter "${token.name}" for route "${route.name}" must match "${token.requirement}" ("${value}" given) to generate a corresponding URL.`,
      );
    }
    path = token.separator + value + path;
    optional = false;
  }
  const url = encodePath(path === '' ? '/' : path);
  const extra = Object.entries(params).filter(([key, value]) => !route.variables.includes(key) && route.defaults[key] !== value);
  if (extra.length === 0) return url;
  return `${url}?${extra.map(([key, value]) => `${rawUrlEncode(key)}=${rawUrlEncode(value)}`).join('&')}`;
}
