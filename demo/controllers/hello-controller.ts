import { html, LoupeResponse, type Controller } from '../../src';

const GREETINGS: Readonly<Record<string, string>> = { en: 'Hello', fr: 'Bonjour', de: 'Hallo' };

/** `GET /hello/{name}` and `GET /{_locale}/hello/{name}`: a greeting in the request's locale. */
export const helloController: Controller = {
  name: 'hello.hello',
  handle: ({ params, locale }) => {
    const greeting = `${GREETINGS[locale] ?? GREETINGS['en'] ?? 'Hello'} ${params['name'] ?? ''}!`;
    return new LoupeResponse(
      html`<!DOCTYPE html><html lang="${locale}"><head><meta charset="UTF-8"><title>${greeting}</title></head><body><h1>${greeting}</h1></body></html>`.toString(),
      200,
      { 'Content-Language': locale },
    );
  },
};
