import test from 'ava';
import { appRoutes } from '../../../src/app/routes';
import { type PhaseSubscription } from '../../../src/kernel/listener';
import { createRouterListener } from '../../../src/routing/router-listener';
import { createProfilerRoutes } from '../../../src/profiler/panel/profiler-routes';
import { type ProfileStorage } from '../../../src/profiler/profile-storage';
import { UrlMatcherRouter } from '../../../src/routing/url-matcher-router';
import { exchangeFor } from '../../helpers/request-data';

/** Routing only: the panel's controllers never run here, so their storage is never reached. */
const unusedStorage = {} as ProfileStorage;

test('GET /_profiler/{token} matches the route _profiler with _route, _controller and token, as Symfony\'s', (t) => {
  const router = new UrlMatcherRouter([
    ...createProfilerRoutes({ storage: unusedStorage, stats: () => ({ writer: { queued: 0, stored: 0, dropped: 0, replaced: 0, batches: 0, lastError: null, state: 'idle' }, notProfiled: 0 }), droppedReason: () => undefined, panels: [] }),
    ...appRoutes(['en', 'fr', 'de']),
  ]);
  const route = createRouterListener(router).subscriptions['kernel.request'] as PhaseSubscription;
  const exchange = exchangeFor({ path: '/_profiler/a1b2c3', query: 'panel=exception' });
  route.handle(exchange);
  const { attributes } = exchange.request;
  t.is(attributes.get('_route'), '_profiler');
  t.is(attributes.get('_controller'), 'Loupe\\Panel\\ProfilerController::panelAction');
  t.is(attributes.get('token'), 'a1b2c3');
  t.deepEqual(attributes.get('_route_params'), { token: 'a1b2c3' });
  const latest = exchangeFor({ path: '/_profiler/latest' });
  route.handle(latest);
  t.is(latest.request.attributes.get('token'), 'latest');
});
