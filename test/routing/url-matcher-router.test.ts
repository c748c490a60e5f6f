import { LoupeResponse } from '../../src/http/response';
import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { routerAnswerContract, routerContract } from './router-contract';

routerContract('UrlMatcherRouter', (routes) => new UrlMatcherRouter(routes));

routerAnswerContract('UrlMatcherRouter', () => ({
  router: new UrlMatcherRouter([
    { name: 'hello', path: '/hello/{name}', methods: ['GET'], controller: { name: 'hello', handle: () => new LoupeResponse('hello') } },
    { name: 'form', path: '/form', methods: ['post', 'PUT', 'POST'], controller: { name: 'form', handle: () => new LoupeResponse('form') } },
  ]),
  answered: { path: '/hello/ada', name: 'hello' },
  otherMethods: { path: '/form', method: 'get' },
  unknown: '/nope',
}));
