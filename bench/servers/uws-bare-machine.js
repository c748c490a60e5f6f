'use strict';
// The limit Loupe works within: uWebSockets.js running Loupe's own request machine for every
// request, as Loupe runs it (long-lived actors in a pool, each taking one request at a time),
// with implementations that do nothing but answer 404. No listeners, routing or errors.
const uws = require('uWebSockets.js');
const { createActor } = require('xstate');
const { requestMachine } = require('../../dist/machines/request.machine');

const noop = () => undefined;
const idleActors = [];
const machine = requestMachine.provide({
  actions: {
    // Each phase ends as the kernel's dispatcher ends it, with the outcome: a controller until the controller answered.
    dispatch: ({ context, self }) => self.send({ type: 'phase.done', outcome: context.exchange.response === null ? 'controller' : 'response', streamed: false }),
    resumeDispatch: noop,
    recordState: noop,
    takeError: noop,
    failNoController: noop,
    resolveArguments: noop,
    callController: ({ context, self }) => {
      context.exchange.response = 'Not Found';
      self.send({ type: 'controller.done', result: context.exchange.response, isResponse: true });
    },
    storeControllerResult: noop,
    storeControllerError: noop,
    failNoViewResponse: noop,
    prepareErrorSubRequest: noop,
    useErrorSubResponse: noop,
    renderMinimalError: noop,
    sendResponse: ({ context: { exchange } }) => {
      if (exchange.aborted) return;
      exchange.res.cork(() => exchange.res.writeStatus('404 Not Found').writeHeader('Content-Type', 'text/plain; charset=utf-8').end(exchange.response));
    },
    markAborted: noop,
    finishRequest: ({ self }) => {
      idleActors.push(self);
    },
  },
});
machine.implementations.actors.handleSubRequest = machine;

function idleActor() {
  const pooled = idleActors.pop();
  if (pooled !== undefined) return pooled;
  const actor = createActor(machine, { input: { role: 'main' } });
  actor.subscribe({ error: noop });
  actor.start();
  return actor;
}

const port = Number(process.env.PORT || 8605);
uws
  .App()
  .any('/*', (res, req) => {
    const exchange = { res, url: req.getUrl(), response: null, aborted: false, subRequest: null };
    res.onAborted(() => {
      exchange.aborted = true;
    });
    idleActor().send({ type: 'request.received', exchange });
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) process.exit(1);
    console.log(`uWS + bare machine listening on http://127.0.0.1:${port}`);
  });
