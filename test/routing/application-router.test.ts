import test from 'ava';
import { LoupeResponse } from '../../src/http/response';
import { ChainRouter } from '../../src/routing/chain-router';
import { isTraceable } from '../../src/routing/traceable-router';
import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { PageRouter } from '../helpers/page-router';
import { routerAnswerContract } from './router-contract';

const pages = (): PageRouter => new PageRouter(new Map([['welcome', 'hello']]));

routerAnswerContract("An application's own router", () => ({
  router: pages(),
  answered: { path: '/pages/welcome', name: 'page' },
  otherMethods: { path: '/pages/welcome', method: 'DELETE' },
  unknown: '/pages/nope',
}));

// createLoupe's chain: Loupe's own matcher first, the application's router after it.
routerAnswerContract("Loupe's router chained with an application's own", () => ({
  router: new ChainRouter([new UrlMatcherRouter([{ name: 'home', path: '/', methods: ['GET'], controller: { name: 'home', handle: () => new LoupeResponse('home') } }]), pages()]),
  answered: { path: '/', name: 'home' },
  otherMethods: { path: '/pages/welcome', method: 'POST' },
  unknown: '/pages/nope',
}));

test("an application's router without trace is not traceable; Loupe's routers and their chain are", (t) => {
  t.false(isTraceable(pages()));
  t.true(isTraceable(new UrlMatcherRouter([])));
  t.true(isTraceable(new ChainRouter([pages()])));
});
