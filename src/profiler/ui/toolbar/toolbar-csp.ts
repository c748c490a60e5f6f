import { type HeaderBag } from '../../../http/header-bag';

/** The policies a browser enforces or reports; each may be sent several times, each value a comma-separated list. */
const POLICY_HEADERS = ['Content-Security-Policy', 'Content-Security-Policy-Report-Only'] as const;

/** The directives that govern the toolbar's inline `<script>` and `<style>`. */
const INLINE_DIRECTIVES = ['script-src', 'script-src-elem', 'style-src', 'style-src-elem'] as const;

type Directives = Map<string, string[]>;

function parsePolicy(policy: string): Directives {
  const directives: Directives = new Map();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    // CSP3 §2.2.1: names are case-insensitive, and only the first of a repeated directive counts.
    if (name !== undefined && name !== '' && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

function serializePolicy(directives: Directives): string {
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

function hasNonceOrHash(sources: readonly string[]): boolean {
  return sources.some((source) => /^'(nonce-|sha256-|sha384-|sha512-|strict-dynamic')/i.test(source));
}

/** `'unsafe-inline'` counts only without a nonce or hash beside it (CSP3 §6.7.3.3). */
function allowsInline(sources: readonly string[]): boolean {
  return sources.some((source) => source.toLowerCase() === "'unsafe-inline'") && !hasNonceOrHash(sources);
}

/**
 * The sources in force for `name`: its own, or default-src's for the directives that fall back
 * to it (the `-elem` ones fall back to their parent, which this function is also asked about);
 * `null` when nothing restricts it.
 */
function effectiveSources(directives: Directives, name: string): string[] | null {
  const own = directives.get(name);
  if (own !== undefined) return own;
  if (name.endsWith('-elem')) return null;
  const fallback = directives.get('default-src');
  return fallback === undefined ? null : [...fallback];
}

/** Adds `source` to `name`, creating the directive from default-src's sources; `'none'` cannot stand beside another source. */
function addSource(directives: Directives, name: string, sources: readonly string[], source: string): void {
  directives.set(name, [...sources.filter((existing) => existing.toLowerCase() !== "'none'"), source]);
}

function allowToolbarInPolicy(policy: string, nonce: string): string {
  const directives = parsePolicy(policy);
  let changed = false;
  for (const name of INLINE_DIRECTIVES) {
    const sources = effectiveSources(directives, name);
    if (sources === null || allowsInline(sources)) continue;
    addSource(directives, name, sources, `'nonce-${nonce}'`);
    changed = true;
  }
  // The script fetches the toolbar's content from this origin.
  const connect = effectiveSources(directives, 'connect-src');
  if (connect !== null && !connect.some((source) => source === "'self'" || source === '*')) {
    addSource(directives, 'connect-src', connect, "'self'");
    changed = true;
  }
  return changed ? serializePolicy(directives) : policy;
}

/**
 * Lets the toolbar's inline script and stylesheet run under the response's Content-Security-Policy,
 * as WebProfilerBundle's ContentSecurityPolicyHandler does: a nonce is added to every script and
 * style directive that restricts inline code (one that already allows it is left alone: a nonce
 * would switch its `'unsafe-inline'` off for the page's own code), and `'self'` to a connect-src
 * that would refuse the toolbar's request. Unlike Symfony, `'unsafe-inline'` is not added for
 * browsers older than CSP 2. Answers the nonce to put on the toolbar's elements, or `null` when
 * no policy needed one.
 */
export function allowToolbarInCsp(headers: HeaderBag, makeNonce: () => string): string | null {
  if (!POLICY_HEADERS.some((header) => headers.has(header))) return null;
  const nonce = makeNonce();
  for (const header of POLICY_HEADERS) {
    const values = headers.getAll(header);
    if (values.length === 0) continue;
    const rewritten = values.map((value) => value.split(',').map((policy) => allowToolbarInPolicy(policy, nonce)).join(','));
    headers.delete(header);
    for (const value of rewritten) headers.append(header, value);
  }
  return nonce;
}
