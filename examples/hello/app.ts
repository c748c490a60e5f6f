import { createLoupe, defineListener, NotFoundHttpError, LoupeResponse, type Controller } from 'loupe-kernel';

const poweredBy = defineListener('PoweredByListener', {
  'kernel.response': [0, ({ response }) => void response.headers.set('X-Powered-By', 'Loupe')],
});

const hello: Controller = { name: 'hello', handle: ({ params }) => new LoupeResponse(`Hello ${params['name']}!`) };

const book: Controller = {
  name: 'book',
  handle: async ({ params }) => {
    if (params['id'] !== '1') throw new NotFoundHttpError(`No book ${params['id']}.`);
    return { id: 1, title: 'The Name of the Rose' };
  },
};

const app = createLoupe({
  routes: [
    { name: 'hello', path: '/hello/{name}', methods: ['GET'], controller: hello },
    { name: 'book', path: '/books/{id}', methods: ['GET'], requirements: { id: '\\d+' }, controller: book },
  ],
  listeners: [poweredBy],
});

app.listen().then(({ url }) => console.log(`Listening on ${url}`));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
