import { Response } from '../../http/response';
import { type Controller } from '../../kernel/controller';
import { escapeHtml } from '../../view/escape-html';

const GREETINGS: Readonly<Record<string, string>> = { en: 'Hello', fr: 'Bonjour', de: 'Hallo' };

/** `GET /hello/{name}` and `GET /{_locale}/hello/{name}`: a greeting in the request's locale. */
export const helloController: Controller = {
  name: 'App\\Controller\\HelloController::hello',
  handle: ({ params, locale }) => {
    const greeting = `${GREETINGS[locale] ?? GREETINGS['en'] ?? 'Hello'} ${params['name'] ?? ''}!`;
    return new Response(
      `<!DOCTYPE html><html lang="${escapeHtml(locale)}"><head><meta charset="UTF-8"><title>${escapeHtml(greeting)}</title></head>` +
        `<body><h1>${escapeHtml(greeting)}</h1></body></html>`,
      200,
      { 'Content-Language': locale },
    );
  },
};
