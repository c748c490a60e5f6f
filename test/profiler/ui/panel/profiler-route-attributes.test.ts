import test from 'ava';
import { demoRoutes } from '../../../../demo/routes';
import { DEMO_USERS } from '../../../../demo/users';
import { CredentialsVerifier } from '../../../../src/security/credentials-verifier';
import { InMemoryUserProvider } from '../../../../src/security/user-provider';
import { createRouterListener } from '../../../../src/routing/router-listener';
import { createProfilerRoutes } from '../../../../src/profiler/ui/panel/profiler-routes';
import { type ProfileStorage } from '../../../../src/profiler/storage/profile-storage';
import { UrlMatcherRouter } from '../../../../src/routing/url-matcher-router';
import { exchangeFor } from '../../../helpers/request-data';
import { runPhaseSync } from '../../../helpers/run-phase';

/** Routing only: the panel's controllers never run here, so their storage is never reached. */
const unusedStorage = {} as ProfileStorage;

test('GET /_profiler/{token} matches the route _profiler with _route, _controller and token, as Symfony\'s', (t) => {
  const router = new UrlMatcherRouter([
    ...createProfilerRoutes({ storage: unusedStorage, stats: () => ({ writer: { queued: 0, stored: 0, dropped: 0, replaced: 0, batches: 0, unconfirmed: 0, lastError: null, state: 'idle' }, notProfiled: 0, sampling: { rate: 1, slowMs: 500, sampledOut: 0, keptAsError: 0, keptAsSlow: 0 } }), droppedReason: () => undefined, panels: [] }),
    ...demoRoutes(['en', 'fr', 'de'], new CredentialsVerifier(new InMemoryUserProvider(DEMO_USERS))),
  ]);
  const routerListener = createRouterListener(router);
  const exchange = exchangeFor({ path: '/_profiler/a1b2c3', query: 'panel=exception' });
  runPhaseSync(routerListener, 'kernel.request', exchange);
  const { attributes } = exchange.request;
  t.is(attributes.get('_route'), '_profiler');
  t.is(attributes.get('_controller'), 'profiler.panel');
  t.is(attributes.get('token'), 'a1b2c3');
  t.deepEqual(attributes.get('_route_params'), { token: 'a1b2c3' });
  const latest = exchangeFor({ path: '/_profiler/latest' });
  runPhaseSync(routerListener, 'kernel.request', latest);
  t.is(latest.request.attributes.get('token'), 'latest');
});
