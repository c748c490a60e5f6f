import test from 'ava';
import { NotFoundHttpError } from '../../../src/errors/http-error';
import { Sampler } from '../../../src/profiler/collect/sampler';
import { exchangeFor } from '../../helpers/request-data';

const never = (): number => 0.999;

test('the rate 1 keeps every request and counts nothing', (t) => {
  const sampler = new Sampler({ rate: 1, slowMs: 500, random: never });
  t.is(sampler.decide(exchangeFor(), 200), 'sampled');
  t.like(sampler.stats, { sampledOut: 0, keptAsError: 0, keptAsSlow: 0 });
});

test('a request the draw keeps is sampled; one it leaves out is kept only as a server error or as slow', (t) => {
  const draws = [0.1, 0.9, 0.9, 0.9, 0.9];
  const sampler = new Sampler({ rate: 0.5, slowMs: 10_000, random: () => draws.shift() ?? 0.9 });
  t.is(sampler.decide(exchangeFor(), 200), 'sampled');
  t.is(sampler.decide(exchangeFor(), 200), 'sampled-out');
  t.is(sampler.decide(exchangeFor(), 503), 'kept-error');
  const crashed = exchangeFor();
  crashed.fail(new Error('boom'));
  t.is(sampler.decide(crashed, 200), 'kept-error', 'an error that is not an HTTP error for the client');
  const notFound = exchangeFor();
  notFound.fail(new NotFoundHttpError('No route found'));
  t.is(sampler.decide(notFound, 404), 'sampled-out', 'a 404 is the client\'s error');
  t.like(sampler.stats, { sampledOut: 2, keptAsError: 2, keptAsSlow: 0 });
});

test('a request that already took PROFILER_SLOW_MS is kept as slow', (t) => {
  const sampler = new Sampler({ rate: 0, slowMs: 0, random: never });
  t.is(sampler.decide(exchangeFor(), 200), 'kept-slow');
  t.is(sampler.stats.keptAsSlow, 1);
});

test('the decision is made once per request: its error sub-request shares it', (t) => {
  const draws = [0.9, 0.1];
  const sampler = new Sampler({ rate: 0.5, slowMs: 10_000, random: () => draws.shift() ?? 0.1 });
  const main = exchangeFor();
  const sub = main.createErrorSubRequest(new NotFoundHttpError('x'), { name: 'error', handle: () => undefined as never });
  t.is(sampler.decide(sub, 404), 'sampled-out');
  t.is(sampler.decide(main, 404), 'sampled-out');
  t.is(sampler.stats.sampledOut, 1);
});
