import { type CredentialsVerifier, type RouteDefinition } from '../src';
import { adminController } from './controllers/admin-controller';
import { asyncBoomController, boomController } from './controllers/boom-controller';
import { echoController } from './controllers/echo-controller';
import { helloController } from './controllers/hello-controller';
import { createLoginController } from './controllers/login-controller';
import { sessionController } from './controllers/session-controller';
import { slowController } from './controllers/slow-controller';
import { createWelcomeController } from './controllers/welcome-controller';

/** The demo application's routes, in matching order; `profilerHome`: where the welcome page links to the profiler (debug only). */
export function demoRoutes(locales: readonly string[], verifier: CredentialsVerifier, profilerHome: string | null = null): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    { name: 'home', path: '/', methods: ['GET'], controller: createWelcomeController(() => routes, profilerHome) },
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
  ];
  return routes;
}
