import { NotFoundHttpError, type Controller } from '../../src';

const QUOTES: readonly { readonly text: string; readonly author: string }[] = [
  { text: 'Premature optimization is the root of all evil.', author: 'Donald Knuth' },
  { text: 'Simplicity is prerequisite for reliability.', author: 'Edsger Dijkstra' },
  { text: 'The most damaging phrase in the language is "We\'ve always done it this way!"', author: 'Grace Hopper' },
  { text: 'Measuring programming progress by lines of code is like measuring aircraft building progress by weight.', author: 'Bill Gates' },
];

/** `GET /api/quote?n=N`: a small JSON API, the upstream that `GET /io/upstream` calls over HTTP. */
export const quoteController: Controller = {
  name: 'quote.quote',
  handle: ({ request }) => {
    const n = Number(request.queryParams.get('n') ?? new Date().getUTCDate());
    const quote = Number.isInteger(n) && n >= 0 ? QUOTES[n % QUOTES.length] : undefined;
    if (quote === undefined) throw new NotFoundHttpError('No such quote: n must be a whole number.');
    return { quote: quote.text, author: quote.author };
  },
};
