import { LoupeError, LoupeResponse, routeMiss, type RequestContext, type RouteDescription, type RouteMatch, type RouteMiss, type Router } from '../../src';

/**
 * An application's own router, as a CMS would write one: pages looked up in a map by slug, no
 * route table, no trace. Written against the public API only, as an application would.
 */
export class PageRouter implements Router {
  readonly #pages: ReadonlyMap<string, string>;
  /** The paths it was asked to match. */
  readonly asked: string[] = [];

  constructor(pages: ReadonlyMap<string, string>) {
    this.#pages = pages;
  }

  match(method: string, path: string): RouteMatch | RouteMiss {
    this.asked.push(path);
    const slug = /^\/pages\/([a-z-]+)$/.exec(path)?.[1];
    const body = slug === undefined ? undefined : this.#pages.get(slug);
    if (slug === undefined || body === undefined) return routeMiss();
    if (method !== 'GET' && method !== 'HEAD') return routeMiss(['GET']);
    return { matched: true, name: 'page', params: { slug }, controller: { name: 'pages.show', handle: ({ params }) => new LoupeResponse(`${params['slug']}: ${body}`) } };
  }

  generate(name: string, params: Readonly<Record<string, string>> = {}): string {
    if (name !== 'page') throw new LoupeError('LOUPE_ERR_ROUTING_INVALID_ROUTE', `No route "${name}".`);
    return `/pages/${params['slug'] ?? ''}`;
  }

  generateUrl(name: string, params: Readonly<Record<string, string>>, context: RequestContext): string {
    return `${context.scheme}://${context.host}${this.generate(name, params)}`;
  }

  describe(name: string): RouteDescription | undefined {
    return name === 'page' ? { name, path: '/pages/{slug}', methods: ['GET'], defaults: {}, requirements: {} } : undefined;
  }
}
