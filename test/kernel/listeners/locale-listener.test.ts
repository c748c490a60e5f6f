import test from 'ava';
import { Exchange } from '../../../src/kernel/exchange';
import { createPhaseEvent } from '../../../src/kernel/event/create-phase-event';
import { KernelAttributes } from '../../../src/kernel/kernel-attributes';
import { type KernelPhase } from '../../../src/kernel/kernel-events';
import { ListenerRegistry, type RegisteredListener } from '../../../src/kernel/listener-registry';
import { createLocaleListener, negotiateLocale } from '../../../src/kernel/listeners/locale-listener';
import { exchangeFor } from '../../helpers/request-data';

const listener = createLocaleListener({ enabledLocales: ['en', 'fr', 'de'], defaultLocale: 'fr' });
const registry = new ListenerRegistry([listener]);

function subscriptions(phase: KernelPhase): readonly RegisteredListener[] {
  return registry.for(phase);
}

/** The handler subscribed to `phase` at `priority`, called with that phase's event for an exchange. */
function at(phase: KernelPhase, priority: number): (exchange: Exchange) => void {
  const found = subscriptions(phase).find((subscription) => subscription.priority === priority);
  if (found === undefined) throw new Error(`no ${phase} subscription at ${priority}`);
  return (exchange) => {
    if (found.handle(createPhaseEvent(phase, exchange)) !== undefined) throw new Error(`the ${phase} handler at ${priority} is expected to be synchronous`);
  };
}

/** kernel.request as the kernel runs it: the default at 100, the locale at 16. */
function request(exchange: Exchange): Exchange {
  at('kernel.request', 100)(exchange);
  at('kernel.request', 16)(exchange);
  return exchange;
}

function subRequestOf(parent: Exchange): Exchange {
  return new Exchange(parent.request.duplicate('GET'), parent, new Error('boom'));
}

test('it is the LocaleListener on kernel.request (100 and 16) and kernel.finish_request (0)', (t) => {
  t.is(listener.name, 'LocaleListener');
  t.deepEqual(Object.keys(listener.subscriptions).sort(), ['kernel.finish_request', 'kernel.request']);
  t.deepEqual(
    subscriptions('kernel.request').map(({ priority }) => priority),
    [100, 16],
  );
  t.deepEqual(
    subscriptions('kernel.finish_request').map(({ priority }) => priority),
    [0],
  );
});

test('at 100 the configured default locale becomes the request default', (t) => {
  const exchange = exchangeFor();
  at('kernel.request', 100)(exchange);
  t.is(exchange.request.defaultLocale, 'fr');
});

test('without route locale or Accept-Language the request takes the default locale', (t) => {
  t.is(request(exchangeFor()).request.locale, 'fr');
});

test('the _locale route attribute wins when it is enabled', (t) => {
  const exchange = exchangeFor({ headers: { 'accept-language': 'en' } });
  exchange.request.attributes.set('_locale', 'de');
  t.is(request(exchange).request.locale, 'de');
});

test('a _locale that is not enabled is ignored', (t) => {
  const exchange = exchangeFor({ headers: { 'accept-language': 'de' } });
  exchange.request.attributes.set('_locale', 'es');
  t.is(request(exchange).request.locale, 'de');
  const withoutHeader = exchangeFor();
  withoutHeader.request.attributes.set('_locale', 'es');
  t.is(request(withoutHeader).request.locale, 'fr');
});

test('Accept-Language is followed by quality, then falls back to the language of a region', (t) => {
  t.is(request(exchangeFor({ headers: { 'accept-language': 'es, en;q=0.5, de;q=0.8' } })).request.locale, 'de');
  t.is(request(exchangeFor({ headers: { 'accept-language': 'de-DE' } })).request.locale, 'de');
  t.is(request(exchangeFor({ headers: { 'accept-language': 'es, pt' } })).request.locale, 'fr');
});

test('a sub-request keeps the locale it was created with, unless its route names one', (t) => {
  const parent = request(exchangeFor({ headers: { 'accept-language': 'de' } }));
  t.is(parent.request.locale, 'de');
  parent.request.locale = 'en';
  const sub = request(subRequestOf(parent));
  t.is(sub.request.locale, 'en');
  const routed = subRequestOf(parent);
  routed.request.attributes.set('_locale', 'fr');
  t.is(request(routed).request.locale, 'fr');
});

test('kernel.finish_request gives a sub-request its parent locale back', (t) => {
  const parent = request(exchangeFor({ headers: { 'accept-language': 'de' } }));
  const sub = subRequestOf(parent);
  sub.request.locale = 'en';
  at('kernel.finish_request', 0)(sub);
  t.is(sub.request.locale, 'de');
  t.is(parent.request.locale, 'de');
});

test('kernel.finish_request resets a main request to the default locale, keeping the handled one aside', (t) => {
  const exchange = request(exchangeFor({ headers: { 'accept-language': 'de' } }));
  t.is(exchange.request.locale, 'de');
  at('kernel.finish_request', 0)(exchange);
  t.is(exchange.request.locale, 'fr');
  t.is(exchange.attributes.get(KernelAttributes.HANDLED_LOCALE), 'de');
});

test('negotiateLocale: no header, no locale', (t) => {
  t.is(negotiateLocale(undefined, ['en']), null);
  t.is(negotiateLocale('', ['en']), null);
});

test('negotiateLocale takes the highest quality, ties in header order', (t) => {
  t.is(negotiateLocale('fr;q=0.5, de;q=0.9, en;q=0.7', ['en', 'fr', 'de']), 'de');
  t.is(negotiateLocale('de, fr', ['fr', 'de']), 'de');
  t.is(negotiateLocale('fr;q=0.8, de;q=0.8', ['de', 'fr']), 'fr');
  t.is(negotiateLocale('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', ['en', 'de']), 'en');
});

test('negotiateLocale skips languages of quality zero and ones not enabled', (t) => {
  t.is(negotiateLocale('fr;q=0', ['fr']), null);
  t.is(negotiateLocale('fr;q=0, en', ['fr', 'en']), 'en');
  t.is(negotiateLocale('es, pt-BR, *', ['fr', 'en']), null);
});

test('negotiateLocale prefers an exact regional locale, else the language, in the spelling of the enabled list', (t) => {
  t.is(negotiateLocale('de-CH', ['de', 'de_CH']), 'de_CH');
  t.is(negotiateLocale('DE-ch', ['de_CH']), 'de_CH');
  t.is(negotiateLocale('de-DE', ['en', 'de']), 'de');
  t.is(negotiateLocale('de_AT', ['en', 'de']), 'de');
  t.is(negotiateLocale('EN', ['fr', 'en']), 'en');
});
