import { type KernelEvent } from '../event/kernel-event';
import { KernelAttributes } from '../kernel-attributes';
import { defineListener, type Listener } from '../listener';

/** The locales an application serves (APP_LOCALES, APP_DEFAULT_LOCALE). */
export interface LocaleOptions {
  /** The locales a request may be handled in, e.g. `['en', 'fr', 'de']` (the default). */
  readonly enabledLocales: readonly string[];
  /** The locale when neither the route nor Accept-Language names an enabled one; one of `enabledLocales`. */
  readonly defaultLocale: string;
}

/** The first Accept-Language tag (q-ordered) whose language is enabled, or `null`. */
export function negotiateLocale(header: string | undefined, enabled: readonly string[]): string | null {
  if (header === undefined || header === '') return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => tag !== '' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const exact = enabled.find((locale) => locale.toLowerCase() === tag.replace('-', '_'));
    if (exact !== undefined) return exact;
    const language = enabled.find((locale) => locale.toLowerCase() === tag.split(/[-_]/)[0]);
    if (language !== undefined) return language;
  }
  return null;
}

/**
 * The request locale (Symfony's LocaleListener): the default first (100), then after routing the
 * `_locale` route attribute, else Accept-Language among the enabled locales (16). A sub-request
 * gives the parent's locale back when it finishes, a main request the default; the locale it was
 * handled in stays readable as KernelAttributes.HANDLED_LOCALE.
 */
export function createLocaleListener(options: LocaleOptions): Listener {
  const setLocale = ({ request, isMainRequest }: KernelEvent): void => {
    const fromRoute = request.attributes.get('_locale');
    if (typeof fromRoute === 'string' && options.enabledLocales.includes(fromRoute)) {
      request.locale = fromRoute;
      return;
    }
    if (isMainRequest) {
      request.locale = negotiateLocale(request.header('accept-language'), options.enabledLocales) ?? request.defaultLocale;
    }
  };
  return defineListener('LocaleListener', {
    'kernel.request': [
      [
        100,
        ({ request }) => {
          request.defaultLocale = options.defaultLocale;
        },
      ],
      [16, setLocale],
    ],
    'kernel.finish_request': [
      0,
      ({ request, parentRequest, attributes }) => {
        attributes.set(KernelAttributes.HANDLED_LOCALE, request.locale);
        request.locale = parentRequest?.locale ?? request.defaultLocale;
      },
    ],
  });
}
