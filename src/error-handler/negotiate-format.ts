import { type Request } from '../http/request';

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

/**
 * The response format the client prefers, as Symfony's Request::getPreferredFormat(): the
 * `_format` attribute, else the first Accept media type (q-ordered) with a known format,
 * else `html`.
 */
export function preferredFormat(request: Request): string {
  const fromAttribute = request.attributes.get('_format');
  if (typeof fromAttribute === 'string' && fromAttribute !== '') return fromAttribute;
  for (const type of rankAccept(request.header('accept') ?? '')) {
    const format = formatOfMediaType(type);
    if (format !== null) return format;
  }
  return 'html';
}
