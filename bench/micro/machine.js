'use strict';
// The request machine alone, in process: createActor + start through the routed path, with
// implementations that do nothing but what the flow needs. Run after `npm run build`:
//   node bench/micro/machine.js [runs]
const { createActor } = require('xstate');
const { requestMachine } = require('../../dist/machines/request.machine');

const noop = () => undefined;
const machine = requestMachine.provide({
  actions: {
    dispatch: noop, resumeDispatch: noop, recordState: noop, takeError: noop, failNoController: noop, resolveArguments: noop,
    callController: ({ context }) => { context.exchange.response = 1; },
    storeControllerResult: noop, storeControllerError: noop, failNoViewResponse: noop, prepareErrorSubRequest: noop,
    useErrorSubResponse: noop, renderMinimalError: noop, sendResponse: noop, markAborted: noop, finishTrace: noop,
  },
  guards: {
    isDispatched: ({ context }, { check }) => check !== 'hasError' && check !== 'isSubRequest' && check !== 'isErrorAlreadyRendered' && (check !== 'hasResponse' || context.exchange.response !== null), hasError: () => false, hasResponse: ({ context }) => context.exchange.response !== null,
    isControllerSettled: () => true, isResponseResult: () => false,
    hasSubRequestFailed: () => false,
  },
});

function run() {
  const actor = createActor(machine, { input: { response: null } });
  actor.subscribe({ error: noop });
  actor.start();
  if (actor.getSnapshot().status !== 'done') throw new Error(`stopped in ${String(actor.getSnapshot().value)}`);
}

const runs = Number(process.argv[2] || 50_000);
for (let i = 0; i < 20_000; i++) run();
const start = process.hrtime.bigint();
for (let i = 0; i < runs; i++) run();
console.log(`request machine alone, routed path: ${(Number(process.hrtime.bigint() - start) / runs / 1000).toFixed(1)} µs per request`);
