import { UrlMatcherRouter } from '../../src/routing/url-matcher-router';
import { routerContract } from './router-contract';

routerContract('UrlMatcherRouter', (routes) => new UrlMatcherRouter(routes));
