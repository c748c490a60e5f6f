import { LoupeError } from '../errors/loupe-error';
import { type Controller } from '../kernel/controller';
import { type RouteDefinition } from './route';

/** Characters that may precede a placeholder and belong to it (Symfony's RouteCompiler::SEPARATORS). */
const SEPARATORS = '/,;.:-_~+*=@|';
/** Symfony limits variable names to 32 word characters not starting with a digit. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

export type RouteToken =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'variable'; readonly separator: string; readonly name: string; readonly requirement: string };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function invalid(name: string, detail: string, cause?: unknown): LoupeError {
  return new LoupeError('LOUPE_ERR_ROUTING_INVALID_ROUTE', `Route "${name}" is invalid: ${detail}`, cause === undefined ? {} : { cause });
}

/** Symfony's Route::sanitizeRequirement: anchors are implied, an empty pattern is an error. */
function sanitizeRequirement(route: string, variable: string, source: string): string {
  const stripped = source.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  if (stripped === '') throw invalid(route, `the requirement for "${variable}" cannot be empty.`);
  return stripped;
}

/**
 * A placeholder's default pattern: anything up to the next `/`, and up to the separator that
 * follows it (`/{name}.{_format}` stops `name` at the dot), as Symfony's RouteCompiler does.
 */
function defaultRequirement(following: string): string {
  const next = following[0];
  return next !== undefined && next !== '/' && SEPARATORS.includes(next) ? `[^/${escapeRegExp(next)}]+` : '[^/]+';
}

/** The declared requirements, sanitized; each must name a placeholder of the path. */
function sanitizeRequirements(definition: RouteDefinition): Record<string, string> {
  const declared = Object.entries(definition.requirements ?? {});
  return Object.fromEntries(declared.map(([variable, source]) => [variable, sanitizeRequirement(definition.name, variable, source)]));
}

function tokenize(name: string, path: string, requirements: Readonly<Record<string, string>>): RouteToken[] {
  const tokens: RouteToken[] = [];
  const seen = new Set<string>();
  const pushText = (text: string): void => {
    if (/[{}]/.test(text)) throw invalid(name, `unbalanced braces in path "${path}".`);
    if (text !== '') tokens.push({ kind: 'text', text });
  };
  let offset = 0;
  for (const match of path.matchAll(/\{([^{}]*)\}/g)) {
    const variable = match[1] ?? '';
    const end = match.index + match[0].length;
    if (!VARIABLE_NAME.test(variable)) throw invalid(name, `"${variable}" is not a valid placeholder name in "${path}".`);
    if (seen.has(variable)) throw invalid(name, `placeholder "${variable}" appears more than once in "${path}".`);
    seen.add(variable);
    let text = path.slice(offset, match.index);
    const preceding = text.at(-1);
    const separator = preceding !== undefined && SEPARATORS.includes(preceding) ? preceding : '';
    text = text.slice(0, text.length - separator.length);
    pushText(text);
    // Own keys only: a placeholder named `constructor` has no requirement from Object.prototype.
    const requirement = (Object.hasOwn(requirements, variable) ? requirements[variable] : undefined) ?? defaultRequirement(path.slice(end));
    tokens.push({ kind: 'variable', separator, name: variable, requirement });
    offset = end;
  }
  pushText(path.slice(offset));
  for (const key of Object.keys(requirements)) {
    if (!seen.has(key)) throw invalid(name, `the requirement "${key}" names no placeholder of "${path}".`);
  }
  return tokens;
}

/** Symfony's RouteCompiler::computeRegexp: optional trailing placeholders nest in `(?:…)?`. */
function tokenSource(tokens: readonly RouteToken[], index: number, firstOptional: number): string {
  const token = tokens[index];
  if (token === undefined) return '';
  if (token.kind === 'text') return escapeRegExp(token.text);
  const group = `${escapeRegExp(token.separator)}(?<${token.name}>${token.requirement})`;
  // A lone optional placeholder keeps its separator mandatory: `/{page}` matches `/`.
  if (index === 0 && firstOptional === 0) return `${group}?`;
  if (index < firstOptional) return group;
  const closing = index === tokens.length - 1 ? ')?'.repeat(tokens.length - firstOptional - (firstOptional === 0 ? 1 : 0)) : '';
  return `(?:${group}${closing}`;
}

/** A route compiled once, at router construction: its tokens, its regular expression and its methods. */
export class CompiledRoute {
  readonly name: string;
  /** The path pattern as declared, `/hello/{name}`. */
  readonly path: string;
  readonly controller: Controller;
  /** The declared requirements, anchors removed, in declaration order. */
  readonly requirements: Readonly<Record<string, string>>;
  readonly tokens: readonly RouteToken[];
  /** Placeholder names in path order. */
  readonly variables: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
  /** Index of the first token of the optional tail; `tokens.length` when there is none. */
  readonly firstOptional: number;
  /** Upper-cased; empty accepts every method. */
  readonly methods: readonly string[];
  readonly #regex: RegExp;
  /** The text of the first token when it is text: every path this route matches starts with it. */
  readonly #literalPrefix: string;

  /** Throws LOUPE_ERR_ROUTING_INVALID_ROUTE for a path, placeholder or requirement that cannot work. */
  constructor(definition: RouteDefinition) {
    const { name, path } = definition;
    if (name === '') throw invalid(name, 'the name is empty.');
    if (!path.startsWith('/')) throw invalid(name, `the path "${path}" does not start with "/".`);
    this.name = name;
    this.path = path;
    this.controller = definition.controller;
    this.defaults = Object.freeze({ ...definition.defaults });
    this.methods = Object.freeze([...new Set((definition.methods ?? []).map((method) => method.toUpperCase()))]);
    this.requirements = Object.freeze(sanitizeRequirements(definition));
    this.tokens = Object.freeze(tokenize(name, path, this.requirements));
    this.variables = Object.freeze(this.tokens.flatMap((token) => (token.kind === 'variable' ? [token.name] : [])));
    let firstOptional = this.tokens.length;
    for (let index = this.tokens.length - 1; index >= 0; index--) {
      const token = this.tokens[index];
      if (token?.kind !== 'variable' || !Object.hasOwn(this.defaults, token.name)) break;
      firstOptional = index;
    }
    this.firstOptional = firstOptional;
    const source = this.tokens.map((_, index) => tokenSource(this.tokens, index, firstOptional)).join('');
    // A text token is matched literally, never inside the optional tail: a path that does not
    // start with the first one cannot match, and most paths are told so without the regex.
    const first = this.tokens[0];
    this.#literalPrefix = first?.kind === 'text' ? first.text : '';
    try {
      this.#regex = new RegExp(`^${source}$`);
    } catch (error) {
      throw invalid(name, `its pattern does not compile (${error instanceof Error ? error.message : String(error)}).`, error);
    }
  }

  /** The parameters (defaults applied) when the percent-decoded `path` matches, else `null`. */
  matchPath(path: string): Record<string, string> | null {
    if (!path.startsWith(this.#literalPrefix)) return null;
    const match = this.#regex.exec(path);
    if (match === null) return null;
    const params: Record<string, string> = { ...this.defaults };
    for (const variable of this.variables) {
      const value = match.groups?.[variable];
      if (value !== undefined) params[variable] = value;
    }
    return params;
  }

  /** The text before the first placeholder, without trailing slashes (Symfony's static prefix, trimmed). */
  get staticPrefix(): string {
    const first = this.tokens[0];
    return first?.kind === 'text' ? first.text.replace(/\/+$/, '') : '';
  }

  /**
   * This route with `requirements` in place of its own (default patterns elsewhere): what the
   * route tracer compiles to tell which requirement a path fails, as Symfony's TraceableUrlMatcher.
   */
  withRequirements(requirements: Readonly<Record<string, string>>): CompiledRoute {
    const { name, path, controller, defaults, methods } = this;
    return new CompiledRoute({ name, path, controller, defaults, methods, requirements });
  }

  /** True when the route answers `method`; a GET route answers HEAD too (RFC 9110 §9.3.2). */
  allowsMethod(method: string): boolean {
    if (this.methods.length === 0) return true;
    const upper = method.toUpperCase();
    return this.methods.includes(upper) || (upper === 'HEAD' && this.methods.includes('GET'));
  }
}
