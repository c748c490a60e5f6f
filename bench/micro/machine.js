'use strict';
// The request machine alone, in process, as the kernel runs it: a long-lived actor takes each
// request through the routed path, with implementations that do nothing but what the flow needs.
// For comparison, the same with a new actor per request. Run after `npm run build`:
//   node bench/micro/machine.js [runs]
const { createActor } = require('xstate');
const { requestMachine } = require('../../dist/machines/request.machine');

const noop = () => undefined;
let finished = 0;
// Each phase ends as the kernel's dispatcher ends it, with the outcome: a controller until the controller answered.
const phaseDone = ({ context, self }) => self.send({ type: 'phase.done', outcome: context.exchange.response === null ? 'controller' : 'response', streamed: false });
const machine = requestMachine.provide({
  actions: {
    dispatch: phaseDone, resumeDispatch: noop, recordState: noop, takeError: noop, failNoController: noop, resolveArguments: noop,
    callController: ({ context, self }) => {
      context.exchange.response = 1;
      self.send({ type: 'controller.done', result: 1, isResponse: true });
    },
    storeControllerResult: noop, storeControllerError: noop, failNoViewResponse: noop, prepareErrorSubRequest: noop,
    useErrorSubResponse: noop, renderMinimalError: noop, sendResponse: noop, markAborted: noop,
    finishRequest: () => { finished++; },
  },
});
machine.implementations.actors.handleSubRequest = machine;

function newActor() {
  const actor = createActor(machine, { input: { role: 'main' } });
  actor.subscribe({ error: noop });
  actor.start();
  return actor;
}

const longLived = newActor();
const variants = {
  'long-lived actor': () => longLived.send({ type: 'request.received', exchange: { response: null, subRequest: null } }),
  'new actor per request': () => newActor().send({ type: 'request.received', exchange: { response: null, subRequest: null } }),
};

const runs = Number(process.argv[2] || 50_000);
for (const [name, run] of Object.entries(variants)) {
  for (let i = 0; i < 20_000; i++) run();
  finished = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) run();
  const wall = Number(process.hrtime.bigint() - start) / runs / 1000;
  const used = process.cpuUsage(cpu);
  if (finished !== runs) throw new Error(`${name}: ${finished} of ${runs} requests finished`);
  console.log(`request machine alone, routed path, ${name}: ${wall.toFixed(1)} µs per request, ${((used.user + used.system) / runs).toFixed(1)} µs CPU`);
}
