import test from 'ava';
import { ForbiddenHttpError } from '../../../../src/errors/http-error';
import { LoupeError } from '../../../../src/errors/loupe-error';
import { Exchange } from '../../../../src/kernel/exchange';
import { ListenerRegistry } from '../../../../src/kernel/listener-registry';
import { createProfilerAccessListener } from '../../../../src/profiler/ui/profiler-access-listener';
import { exchangeFor } from '../../../helpers/request-data';
import { runPhaseSync } from '../../../helpers/run-phase';

// Lives beside the panel tests because the listener guards the panel's routes.
const DEFAULT_RANGES = ['127.0.0.0/8', '::1/128'];

function exchangeFrom(remoteAddress: string, route: string | null): Exchange {
  const exchange = exchangeFor({ path: '/_profiler/latest', headers: { host: '127.0.0.1' }, remoteAddress });
  if (route !== null) exchange.request.attributes.set('_route', route);
  return exchange;
}

function runRequestPhase(ranges: readonly string[], exchange: Exchange): void {
  runPhaseSync(createProfilerAccessListener(ranges), 'kernel.request', exchange);
}

test('runs at kernel.request 31, right after the RouterListener (32)', (t) => {
  t.deepEqual(new ListenerRegistry([createProfilerAccessListener(DEFAULT_RANGES)]).for('kernel.request').map((l) => [l.name, l.priority]), [['ProfilerAccessListener', 31]]);
});

test('loopback clients reach every profiler route, in IPv4, IPv6 and IPv4-mapped form', (t) => {
  for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '0000:0000:0000:0000:0000:ffff:7f00:0001']) {
    for (const route of ['_profiler', '_profiler_home', '_profiler_search', '_profiler_status']) {
      t.notThrows(() => runRequestPhase(DEFAULT_RANGES, exchangeFrom(address, route)), `${address} ${route}`);
    }
  }
});

test('another client gets a 403 naming PROFILER_ALLOWED_IPS', (t) => {
  for (const address of ['10.1.2.3', '::ffff:192.168.0.1', '2001:db8::1']) {
    const error = t.throws(() => runRequestPhase(DEFAULT_RANGES, exchangeFrom(address, '_profiler')), { instanceOf: ForbiddenHttpError });
    t.is(error?.statusCode, 403);
    t.regex(error?.message ?? '', /PROFILER_ALLOWED_IPS/);
    t.true(error?.message.includes(`"${address}"`));
  }
});

test('routes that are not the profiler\'s, unrouted requests and sub-requests are left alone', (t) => {
  t.notThrows(() => runRequestPhase(DEFAULT_RANGES, exchangeFrom('10.1.2.3', 'hello')));
  t.notThrows(() => runRequestPhase(DEFAULT_RANGES, exchangeFrom('10.1.2.3', null)));
  const parent = exchangeFrom('10.1.2.3', null);
  const sub = new Exchange(parent.request.duplicate('GET'), parent, new Error('x'));
  sub.request.attributes.set('_route', '_profiler');
  t.notThrows(() => runRequestPhase(DEFAULT_RANGES, sub));
});

test('PROFILER_ALLOWED_IPS decides: 10.0.0.0/8 refuses loopback', (t) => {
  t.throws(() => runRequestPhase(['10.0.0.0/8'], exchangeFrom('127.0.0.1', '_profiler')), { instanceOf: ForbiddenHttpError });
  t.notThrows(() => runRequestPhase(['10.0.0.0/8'], exchangeFrom('10.9.8.7', '_profiler')));
});

test('an invalid range fails at start with the variable named', (t) => {
  const error = t.throws(() => createProfilerAccessListener(['127.0.0.1/40']), { instanceOf: LoupeError });
  t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
  t.regex(error?.message ?? '', /^Invalid PROFILER_ALLOWED_IPS: Invalid IP range "127\.0\.0\.1\/40"/);
});
