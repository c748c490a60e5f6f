import { type CredentialsVerifier, type RouteDefinition } from '../src';
import { adminController } from './controllers/admin-controller';
import { asyncBoomController, boomController } from './controllers/boom-controller';
import { echoController } from './controllers/echo-controller';
import { helloController } from './controllers/hello-controller';
import { createLoginController } from './controllers/login-controller';
import { sessionController } from './controllers/session-controller';
import { slowController } from './controllers/slow-controller';
import { createCacheController } from './controllers/cache-controller';
import { quoteController } from './controllers/quote-controller';
import { createUpstreamController } from './controllers/upstream-controller';
import { createUsersController, createUsersNPlusOneController } from './controllers/users-controller';
import { createWelcomeController } from './controllers/welcome-controller';
import { SQL_ROUTES_HINT } from './demo-config';
import { type DemoIo } from './io/demo-io';

/**
 * The demo application's routes, in matching order; `profilerHome`: where the welcome page links
 * to the profiler (debug only); `io`: the demo's own Redis, database and upstream, without which
 * the I/O routes are left out.
 */
export function demoRoutes(locales: readonly string[], verifier: CredentialsVerifier, profilerHome: string | null = null, io: DemoIo | null = null): RouteDefinition[] {
  const notice = io !== null && io.users === null ? SQL_ROUTES_HINT : null;
  const routes: RouteDefinition[] = [
    { name: 'home', path: '/', methods: ['GET'], controller: createWelcomeController(() => routes, profilerHome, notice) },
    { name: 'hello', path: '/hello/{name}', methods: ['GET'], controller: helloController },
    {
      name: 'hello_localized',
      path: '/{_locale}/hello/{name}',
      methods: ['GET'],
      requirements: { _locale: locales.join('|') },
      controller: helloController,
    },
    { name: 'api_echo', path: '/api/echo', methods: ['POST'], controller: echoController },
    { name: 'boom', path: '/boom', methods: ['GET'], controller: boomController },
    { name: 'boom_async', path: '/boom/async', methods: ['GET'], controller: asyncBoomController },
    { name: 'slow', path: '/slow', methods: ['GET'], controller: slowController },
    { name: 'session', path: '/session', methods: ['GET'], controller: sessionController },
    { name: 'admin', path: '/admin', methods: ['GET'], controller: adminController },
    { name: 'login', path: '/login', methods: ['POST'], controller: createLoginController({ verifier }) },
    { name: 'api_quote', path: '/api/quote', methods: ['GET'], controller: quoteController },
  ];
  if (io !== null) {
    routes.push(
      { name: 'io_upstream', path: '/io/upstream', methods: ['GET'], controller: createUpstreamController(io.upstream) },
      { name: 'io_cache', path: '/io/cache/{key}', methods: ['GET'], requirements: { key: '[A-Za-z0-9_.-]{1,64}' }, controller: createCacheController(io.cache) },
      { name: 'io_users', path: '/io/users', methods: ['GET'], controller: createUsersController(io.users) },
      { name: 'io_users_n_plus_one', path: '/io/users-n-plus-one', methods: ['GET'], controller: createUsersNPlusOneController(io.users) },
    );
  }
  return routes;
}
