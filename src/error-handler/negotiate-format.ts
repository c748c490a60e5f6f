import { type LoupeRequest } from '../http/request';

/** Symfony's Request::initializeFormats(): the formats a media type can name. */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  html: ['text/html', 'application/xhtml+xml'],
  txt: ['text/plain'],
  js: ['application/javascript', 'application/x-javascript', 'text/javascript'],
  css: ['text/css'],
  json: ['application/json', 'application/x-json'],
  jsonld: ['application/ld+json'],
  xml: ['text/xml', 'application/xml', 'application/x-xml'],
  rdf: ['application/rdf+xml'],
  atom: ['application/atom+xml'],
  rss: ['application/rss+xml'],
  form: ['application/x-www-form-urlencoded', 'multipart/form-data'],
};

const FORMAT_BY_MEDIA_TYPE: ReadonlyMap<string, string> = new Map(
  Object.entries(FORMATS).flatMap(([format, types]) => types.map((type) => [type, format] as const)),
);

/** Commas inside quoted parameter values do not separate media ranges. */
const RANGE_SEPARATOR = /,(?=(?:[^"]*"[^"]*")*[^"]*$)/;

/** The format a media type maps to (`application/json` → `json`), or `null`; `*\/*` maps to nothing. */
export function formatOfMediaType(mediaType: string): string | null {
  return FORMAT_BY_MEDIA_TYPE.get(mediaType.split(';')[0]?.trim().toLowerCase() ?? '') ?? null;
}

/** Media ranges of an Accept header, highest q first, equal q in header order. */
function rankAccept(header: string): string[] {
  return header
    .split(RANGE_SEPARATOR)
    .map((part, index) => {
      const [type = '', ...params] = part.split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
      return { type: type.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    // RFC 9110 §12.4.2: q=0 means "not acceptable"; Symfony keeps such ranges last, Loupe drops them.
    .filter(({ type, q }) => type !== '' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ type }) => type);
}

/** The format of the first media range of an Accept header with a known format, else `html`. */
function formatOfAccept(header: string): string {
  for (const type of rankAccept(header)) {
    const format = formatOfMediaType(type);
    if (format !== null) return format;
  }
  return 'html';
}

/**
 * Formats by Accept header: clients send the same few headers again and again, and ranking one
 * (a split on a look-ahead, a sort) costs an error response more than rendering it. Bounded in
 * entries and in the length of a header kept.
 */
const formatByAccept = new Map<string, string>();
const MAX_CACHED_ACCEPTS = 128;
const MAX_CACHED_ACCEPT_LENGTH = 512;

/**
 * The response format the client prefers, as Symfony's Request::getPreferredFormat(): the
 * `_format` attribute, else the first Accept media type (q-ordered) with a known format,
 * else `html`.
 */
export function preferredFormat(request: LoupeRequest): string {
  const fromAttribute = request.attributes.get('_format');
  if (typeof fromAttribute === 'string' && fromAttribute !== '') return fromAttribute;
  const header = request.header('accept') ?? '';
  let format = formatByAccept.get(header);
  if (format === undefined) {
    format = formatOfAccept(header);
    if (formatByAccept.size < MAX_CACHED_ACCEPTS && header.length <= MAX_CACHED_ACCEPT_LENGTH) formatByAccept.set(header, format);
  }
  return format;
}
