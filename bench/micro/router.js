'use strict';
// What routing one request costs, out of the kernel: the demo's routes in Loupe's matcher, and
// the same behind createLoupe's chain, where an application's own router answers what Loupe's
// matcher does not. Needs `npm run build`; the figures go to standard error:
//   node bench/micro/router.js /hello/anna own 2000000
//   node bench/micro/router.js /pages/welcome chain 2000000   # answered by the application's router
//   node bench/micro/router.js /nope chain 500000             # a 404 of both
// A router of a build where misses were thrown is measured the same way: a throw is caught here.
// STACK_TRACES=0 measures with Error.stackTraceLimit at 0: errors with no frames, as the RouterListener makes misses without debug.
const { LoupeResponse } = require('../../dist/src');
const { UrlMatcherRouter } = require('../../dist/src/routing/url-matcher-router');
const { ChainRouter } = require('../../dist/src/routing/chain-router');
const { demoRoutes } = require('../../dist/demo/routes');

const [path = '/hello/anna', mode = 'own', count = '2000000'] = process.argv.slice(2);
const verifier = { verify: async () => null };
const own = new UrlMatcherRouter(demoRoutes(['en', 'fr', 'de'], verifier));
// The application's own router: a route table of its own, as createLoupe chains one after Loupe's.
const app = new UrlMatcherRouter([{ name: 'page', path: '/pages/{slug}', methods: ['GET'], controller: { name: 'pages.show', handle: () => new LoupeResponse('page') } }]);
const router = mode === 'chain' ? new ChainRouter([own, app]) : own;

const answer = (method, target) => {
  try {
    return router.match(method, target);
  } catch (error) {
    return error;
  }
};

if (process.env.STACK_TRACES === '0') Error.stackTraceLimit = 0;
const first = answer('GET', path);
const outcome = first instanceof Error ? first.constructor.name : first.matched === false ? `miss (${first.allowedMethods.join(', ') || '404'})` : `route ${first.name}`;
for (let i = 0; i < 200000; i++) answer('GET', path);
const runs = Number(count);
const start = process.hrtime.bigint();
let sink = 0;
for (let i = 0; i < runs; i++) if (answer('GET', path) !== null) sink++;
const ns = Number(process.hrtime.bigint() - start) / runs;
console.error(`${path} ${mode}: ${ns.toFixed(0)} ns per match (${outcome}, ${sink === runs ? 'all answered' : 'some not answered'})`);
