import test from 'ava';
import { NotFoundHttpError } from '../../src/errors/http-error';
import { type Connection } from '../../src/http/connection';
import { LoupeResponse } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { type RequestEvent } from '../../src/kernel/event/request-event';
import { type Exchange } from '../../src/kernel/exchange';
import { Kernel } from '../../src/kernel/kernel';
import { defineListener, type Listener } from '../../src/kernel/listener';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { requestData } from '../helpers/request-data';
import { deferred } from '../helpers/deferred';

const okController: Controller = { name: 'ok', handle: () => new LoupeResponse('ok') };
const dataController: Controller = { name: 'data', handle: () => ({ hello: 'world' }) };
const nothingController: Controller = { name: 'nothing', handle: () => undefined };
const asyncController: Controller = { name: 'async', handle: async () => new LoupeResponse('later') };
const throwingController: Controller = {
  name: 'throwing',
  handle: () => {
    throw new Error('controller failed');
  },
};
const rejectingController: Controller = { name: 'rejecting', handle: () => Promise.reject(new Error('rejected')) };
const pendingForever: Controller = { name: 'pending', handle: () => new Promise(() => undefined) };

interface Run {
  readonly terminated: Exchange[];
  readonly written: LoupeResponse[];
  readonly kernel: Kernel;
}

/**
 * A kernel whose routing is a table lookup, whose view listener makes JSON, and which records
 * each terminated exchange; the error controller renders `status message`.
 */
function createKernel(routes: Readonly<Record<string, Controller>>, extra: Listener[] = [], errorController?: Controller): Run {
  const terminated: Exchange[] = [];
  const written: LoupeResponse[] = [];
  const listeners: Listener[] = [
    defineListener('TableRouter', {
      'kernel.request': [
        32,
        ({ exchange, request }) => {
          if (exchange.controller !== null) return;
          const controller = routes[request.path];
          if (controller === undefined) throw new NotFoundHttpError(`No route for ${request.path}`);
          exchange.controller = controller;
        },
      ],
    }),
    defineListener('View', {
      'kernel.view': [
        0,
        (event) => {
          if (event.controllerResult !== undefined) event.setResponse(LoupeResponse.json(event.controllerResult));
        },
      ],
    }),
    defineListener('Recorder', { 'kernel.terminate': [0, ({ exchange }) => void terminated.push(exchange)] }),
    ...extra,
  ];
  const kernel = new Kernel({
    defaultLocale: 'en',
    listeners: new ListenerRegistry(listeners),
    errorController: errorController ?? {
      name: 'error_controller',
      handle: ({ error }) => {
        const status = error instanceof NotFoundHttpError ? 404 : 500;
        return new LoupeResponse(`${status} ${error instanceof Error ? error.message : String(error)}`, status);
      },
    },
  });
  return { kernel, terminated, written };
}

function connection(run: Run): Connection {
  return {
    write: (response) => {
      run.written.push(response);
      return true;
    },
  };
}

const phasesOf = (exchange: Exchange | undefined | null): string[] => (exchange?.trace.states ?? []).map((state) => state.name);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The states of a main request whose error at kernel.request was rendered by the error sub-request. */
const ERROR_PAGE_STATES = ['kernel.request', 'kernel.exception', 'error_sub_request', 'kernel.response', 'kernel.finish_request', 'kernel.terminate'];

/** Every state of a request that went the ordinary way, each once. */
const ROUTED_STATES = [
  'kernel.request',
  'kernel.controller',
  'kernel.controller_arguments',
  'controller',
  'kernel.response',
  'kernel.finish_request',
  'kernel.terminate',
];

test('a routed request goes through every phase in order, once', (t) => {
  const run = createKernel({ '/': okController });
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  t.deepEqual(phasesOf(run.terminated[0]), ROUTED_STATES);
  t.is(run.written[0]?.body, 'ok');
  t.is(run.kernel.activeRequests, 0);
});

test('a controller returning data passes through kernel.view', (t) => {
  const run = createKernel({ '/data': dataController });
  run.kernel.handle(requestData({ path: '/data' }), connection(run));
  t.true(phasesOf(run.terminated[0]).includes('kernel.view'));
  t.is(run.written[0]?.body, '{"hello":"world"}');
});

test('a controller returning nothing fails at kernel.view with a clear message', (t) => {
  const run = createKernel({ '/nothing': nothingController });
  run.kernel.handle(requestData({ path: '/nothing' }), connection(run));
  const main = run.terminated.find((exchange) => exchange.isMainRequest);
  t.is(run.written[0]?.status, 500);
  t.regex(run.written[0]?.body.toString() ?? '', /must return a "Response" object but it returned undefined\. Did you forget to add a return statement/);
  t.deepEqual(phasesOf(main).slice(0, 5), ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'controller', 'kernel.view']);
  t.true(phasesOf(main).includes('kernel.exception'));
});

test('a controller returning nothing goes from kernel.view straight to kernel.exception', (t) => {
  const run = createKernel({ '/nothing': nothingController });
  run.kernel.handle(requestData({ path: '/nothing' }), connection(run));
  const main = run.terminated.find((exchange) => exchange.isMainRequest);
  t.deepEqual(phasesOf(main).slice(0, 6), [
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'controller',
    'kernel.view',
    'kernel.exception',
  ]);
});

test('an unrouted request is rendered by an error sub-request running the same phases', (t) => {
  const run = createKernel({});
  run.kernel.handle(requestData({ path: '/config.yaml' }), connection(run));
  const [main] = run.terminated;
  const sub = main?.subRequest ?? undefined;
  t.is(run.terminated.length, 1, 'a sub-request is terminated with its main request, not on its own');
  t.is(run.written.length, 1);
  t.is(run.written[0]?.status, 404);
  t.deepEqual(phasesOf(main), ERROR_PAGE_STATES);
  t.is(sub?.parent, main);
  // A sub-request's response is its parent's to send: it ends at kernel.finish_request.
  t.deepEqual(phasesOf(sub), ROUTED_STATES.slice(0, -1));
  t.is(sub?.request.method, 'GET');
  t.true(sub?.renderedError instanceof NotFoundHttpError);
});

for (const [name, controller] of [
  ['throws', throwingController],
  ['rejects', rejectingController],
] as const) {
  test(`a controller that ${name} leads to kernel.exception and a 500`, async (t) => {
    const run = createKernel({ '/fail': controller });
    run.kernel.handle(requestData({ path: '/fail' }), connection(run));
    await run.kernel.whenIdle();
    const main = run.terminated.find((exchange) => exchange.isMainRequest);
    t.is(run.written[0]?.status, 500);
    t.true(phasesOf(main).includes('kernel.exception'));
    t.true(phasesOf(main).includes('error_sub_request'));
    t.is(run.kernel.activeRequests, 0);
  });
}

test('an async controller waits in the controller state, then goes on', async (t) => {
  const run = createKernel({ '/async': asyncController });
  run.kernel.handle(requestData({ path: '/async' }), connection(run));
  t.is(run.kernel.activeRequests, 1);
  await run.kernel.whenIdle();
  t.deepEqual(phasesOf(run.terminated[0]).slice(2, 5), ['kernel.controller_arguments', 'controller', 'kernel.response']);
  t.is(phasesOf(run.terminated[0]).filter((state) => state === 'controller').length, 1);
  t.is(run.written[0]?.body, 'later');
});

test('an error inside the error sub-request yields a minimal 500, never a hang', async (t) => {
  const failingErrorController: Controller = {
    name: 'error_controller',
    handle: () => {
      throw new Error('the error page itself failed');
    },
  };
  const run = createKernel({ '/fail': throwingController }, [], failingErrorController);
  run.kernel.handle(requestData({ path: '/fail' }), connection(run));
  await run.kernel.whenIdle();
  const main = run.terminated.find((exchange) => exchange.isMainRequest);
  t.is(run.written.length, 1);
  t.is(run.written[0]?.status, 500);
  t.is(run.written[0]?.body, 'Internal Server Error');
  t.is(run.written[0]?.headers.get('X-Robots-Tag'), 'noindex');
  t.deepEqual(phasesOf(main).slice(0, 5), ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'controller', 'kernel.exception']);
  t.true(phasesOf(main).includes('error_sub_request'));
  t.true(main?.trace.logs.some((log) => log.level === 'critical') ?? false);
});

test('a failing kernel.response listener after an error page ends with the minimal 500, without looping', (t) => {
  const breaksResponses = defineListener('Breaks', {
    'kernel.response': [
      0,
      ({ isMainRequest }) => {
        if (isMainRequest) throw new Error('response listener failed');
      },
    ],
  });
  const run = createKernel({ '/': okController }, [breaksResponses]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  const main = run.terminated.find((exchange) => exchange.isMainRequest);
  t.is(run.written[0]?.status, 500);
  t.is(phasesOf(main).filter((state) => state === 'kernel.exception').length, 2);
  t.is(run.kernel.activeRequests, 0);
});

test('a response set at kernel.request skips the controller', (t) => {
  const shortCircuit = defineListener('ShortCircuit', {
    'kernel.request': [64, (event) => event.setResponse(new LoupeResponse('early', 200))],
  });
  const run = createKernel({ '/': okController }, [shortCircuit]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  t.is(run.written[0]?.body, 'early');
  t.false(phasesOf(run.terminated[0]).includes('kernel.controller'));
  // The router (priority 32) never ran: propagation stopped with the response.
  t.false(run.terminated[0]?.trace.listeners.some((listener) => listener.name === 'TableRouter') ?? true);
});

test('an abort while the controller runs writes nothing and still terminates', async (t) => {
  const run = createKernel({ '/pending': pendingForever });
  const running = run.kernel.handle(requestData({ path: '/pending' }), connection(run));
  t.is(run.kernel.activeRequests, 1);
  running.abort();
  await run.kernel.whenIdle();
  t.is(run.written.length, 0);
  t.deepEqual(phasesOf(run.terminated[0]).slice(-3), ['controller', 'aborted', 'kernel.terminate']);
  t.true(run.terminated[0]?.aborted);
});

test('an async controller settling after an abort is ignored', async (t) => {
  let settle: (value: LoupeResponse) => void = () => undefined;
  const late: Controller = { name: 'late', handle: () => new Promise<LoupeResponse>((resolve) => (settle = resolve)) };
  const run = createKernel({ '/late': late });
  run.kernel.handle(requestData({ path: '/late' }), connection(run)).abort();
  settle(new LoupeResponse('too late'));
  await new Promise((resolve) => setImmediate(resolve));
  t.is(run.written.length, 0);
  t.is(run.kernel.activeRequests, 0);
});

test('listeners are timed per phase, highest priority first', (t) => {
  const order: string[] = [];
  const make = (name: string, priority: number): Listener => defineListener(name, { 'kernel.response': [priority, () => void order.push(name)] });
  const run = createKernel({ '/': okController }, [make('low', -10), make('high', 10), make('mid', 0)]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  t.deepEqual(order, ['high', 'mid', 'low']);
  const recorded = run.terminated[0]?.trace.listeners.filter((listener) => listener.phase === 'kernel.response') ?? [];
  t.deepEqual(
    recorded.map((listener) => listener.name),
    ['high', 'mid', 'low'],
  );
  t.true(recorded.every((listener) => listener.duration >= 0));
});

test('a bug in a provided action crashes only its request: a 500 is written and the actor released', (t) => {
  const crashes: unknown[] = [];
  const run = createKernel({ '/': okController });
  const kernel = new Kernel({
    defaultLocale: 'en',
    listeners: new ListenerRegistry([]),
    errorController: okController,
    onCrash: (error) => crashes.push(error),
  });
  // A connection that throws while writing makes the sendResponse action throw.
  kernel.handle(requestData({ path: '/' }), {
    write: (response) => {
      if (response.status !== 500) throw new Error('socket exploded');
      run.written.push(response);
      return true;
    },
  });
  t.is(crashes.length, 1);
  t.is(run.written[0]?.status, 500);
  t.is(kernel.activeRequests, 0);
});

test('an async kernel.request listener makes the request wait in the phase, then it goes on', async (t) => {
  const gate = deferred();
  const order: string[] = [];
  const seen: { exchange?: Exchange } = {};
  const slow = defineListener('Slow', {
    'kernel.request': [
      64,
      async ({ exchange }) => {
        seen.exchange = exchange;
        order.push('slow:start');
        await gate.promise;
        order.push('slow:end');
      },
    ],
  });
  const after = defineListener('After', { 'kernel.request': [48, () => void order.push('after')] });
  const run = createKernel({ '/': okController }, [slow, after]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  t.deepEqual(order, ['slow:start']);
  t.is(run.kernel.activeRequests, 1);
  await sleep(20);
  t.deepEqual(order, ['slow:start'], 'the later listeners of the phase wait for the pending one');
  t.deepEqual(phasesOf(seen.exchange), ['kernel.request'], 'the machine waits in kernel.request');
  t.is(run.written.length, 0);
  t.is(seen.exchange?.controller, null, 'the router did not run yet');

  gate.resolve();
  await run.kernel.whenIdle();
  t.deepEqual(order, ['slow:start', 'slow:end', 'after']);
  t.is(run.written[0]?.body, 'ok');
  t.deepEqual(phasesOf(run.terminated[0]), ROUTED_STATES, 'kernel.request is entered once, however long it waited');
  const recorded = run.terminated[0]?.trace.listeners.filter((listener) => listener.phase === 'kernel.request') ?? [];
  t.deepEqual(
    recorded.map((listener) => listener.name),
    ['Slow', 'After', 'TableRouter'],
  );
  t.true((recorded[0]?.duration ?? 0) >= 15, `the pending listener is timed until it settled: ${recorded[0]?.duration} ms`);
  t.true((recorded[1]?.start ?? 0) >= (recorded[0]?.start ?? 0) + (recorded[0]?.duration ?? 0), 'the next listener started after it');
});

test('an async kernel.request listener that rejects leads to kernel.exception and the error page', async (t) => {
  const failure = new Error('the user store is down');
  const rejecting = defineListener('Rejecting', {
    'kernel.request': [
      64,
      async ({ isMainRequest }) => {
        await sleep(5);
        if (isMainRequest) throw failure;
      },
    ],
  });
  const run = createKernel({ '/': okController }, [rejecting]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  await run.kernel.whenIdle();
  const [main] = run.terminated;
  t.is(run.written.length, 1);
  t.is(run.written[0]?.status, 500);
  t.is(run.written[0]?.body, '500 the user store is down');
  t.deepEqual(phasesOf(main), ERROR_PAGE_STATES);
  t.is(main?.errors[0], failure);
  t.is(main?.subRequest?.renderedError, failure);
  t.deepEqual(
    main?.trace.listeners.filter((listener) => listener.phase === 'kernel.request').map((listener) => listener.name),
    ['Rejecting'],
    'the phase ended with the rejection: the router did not run',
  );
  t.is(main?.controller, null);
});

test('an async kernel.terminate listener runs after the response was sent; the request ends when it settles', async (t) => {
  const gate = deferred();
  const writtenWhenStarted: number[] = [];
  const run = createKernel({ '/': okController }, [
    defineListener('Flusher', {
      'kernel.terminate': [
        -10,
        async () => {
          writtenWhenStarted.push(run.written.length);
          await gate.promise;
        },
      ],
    }),
  ]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  t.deepEqual(writtenWhenStarted, [1], 'the response was written before kernel.terminate');
  t.is(run.written[0]?.body, 'ok');
  t.is(run.kernel.activeRequests, 1, 'the request waits in kernel.terminate');
  const [main] = run.terminated;
  t.is(phasesOf(main).at(-1), 'kernel.terminate');
  t.true(main?.sent);

  await sleep(20);
  t.is(run.kernel.activeRequests, 1);
  gate.resolve();
  await run.kernel.whenIdle();
  t.is(run.kernel.activeRequests, 0);
  t.is(run.written.length, 1, 'nothing is written twice');
  t.deepEqual(phasesOf(main), ROUTED_STATES);
  const flusher = main?.trace.listeners.find((listener) => listener.name === 'Flusher');
  t.is(flusher?.phase, 'kernel.terminate');
  t.true((flusher?.duration ?? 0) >= 15, `timed until it settled: ${flusher?.duration} ms`);
});

for (const outcome of ['resolves', 'rejects'] as const) {
  test(`an abort while a kernel.request listener is pending ends in aborted → kernel.terminate; a late settle that ${outcome} is ignored`, async (t) => {
    const gate = deferred();
    const pending = defineListener('Pending', { 'kernel.request': [64, ({ isMainRequest }) => (isMainRequest ? gate.promise : undefined)] });
    const run = createKernel({ '/': okController }, [pending]);
    const running = run.kernel.handle(requestData({ path: '/' }), connection(run));
    t.is(run.kernel.activeRequests, 1);
    running.abort();
    await run.kernel.whenIdle();
    t.is(run.kernel.activeRequests, 0);
    t.is(run.written.length, 0);
    const [main] = run.terminated;
    t.deepEqual(phasesOf(main), ['kernel.request', 'aborted', 'kernel.terminate']);
    t.true(main?.aborted);
    const listenersBefore = main?.trace.listeners.length;
    const logsBefore = main?.trace.logs.length;

    if (outcome === 'resolves') gate.resolve();
    else gate.reject(new Error('settled too late'));
    await sleep(10);
    t.is(run.written.length, 0);
    t.is(run.terminated.length, 1, 'kernel.terminate ran once');
    t.deepEqual(phasesOf(main), ['kernel.request', 'aborted', 'kernel.terminate']);
    t.is(main?.trace.listeners.length, listenersBefore);
    t.is(main?.trace.logs.length, logsBefore);
    t.deepEqual(main?.errors, []);
    t.is(main?.controller, null, 'the rest of kernel.request never ran');
    t.is(run.kernel.activeRequests, 0);
  });
}

// A settle belongs to its dispatch: one abandoned by an abort must not end another phase's wait.
test('a late settle after an abort does not end an async kernel.terminate listener early', async (t) => {
  const requestGate = deferred();
  const terminateGate = deferred();
  let terminateSettled = false;
  const run = createKernel({ '/': okController }, [
    defineListener('Pending', { 'kernel.request': [64, () => requestGate.promise] }),
    defineListener('Flusher', {
      'kernel.terminate': [
        -10,
        async () => {
          await terminateGate.promise;
          terminateSettled = true;
        },
      ],
    }),
  ]);
  run.kernel.handle(requestData({ path: '/' }), connection(run)).abort();
  t.is(run.kernel.activeRequests, 1, 'waiting for the Flusher');
  requestGate.resolve();
  await sleep(10);
  t.false(terminateSettled);
  t.is(run.kernel.activeRequests, 1, 'still waiting for the Flusher, whatever the abandoned listener did');
  terminateGate.resolve();
  await run.kernel.whenIdle();
});

for (const timing of ['synchronously', 'after an await'] as const) {
  test(`RequestEvent.setResponse ${timing} stops the later listeners of the phase, not those of later phases`, async (t) => {
    const calls: string[] = [];
    const answer = (event: RequestEvent): void => {
      calls.push('answering');
      event.setResponse(new LoupeResponse('from a listener', 203));
    };
    const answering = defineListener('Answering', {
      'kernel.request': [
        64,
        timing === 'synchronously'
          ? answer
          : async (event) => {
              await sleep(1);
              answer(event);
            },
      ],
    });
    const later = defineListener('Later', {
      'kernel.request': [48, () => void calls.push('later:request')],
      'kernel.response': [0, () => void calls.push('later:response')],
    });
    const run = createKernel({ '/': okController }, [answering, later]);
    run.kernel.handle(requestData({ path: '/' }), connection(run));
    await run.kernel.whenIdle();
    t.deepEqual(calls, ['answering', 'later:response']);
    t.is(run.written[0]?.status, 203);
    t.is(run.written[0]?.body, 'from a listener');
    const [main] = run.terminated;
    t.deepEqual(
      main?.trace.listeners.filter((listener) => listener.phase === 'kernel.request').map((listener) => listener.name),
      ['Answering'],
    );
    t.deepEqual(phasesOf(main), ['kernel.request', 'kernel.response', 'kernel.finish_request', 'kernel.terminate']);
  });
}

test('synchronous listeners never make a phase wait: each state is entered once and the request ends within handle()', (t) => {
  const ran: string[] = [];
  // Return values that are not promises are ignored: they must not make the machine wait.
  const sync = defineListener('Sync', {
    'kernel.request': [64, () => (ran.push('request'), 42)],
    'kernel.controller': [0, () => void ran.push('controller')],
    'kernel.response': [0, () => (ran.push('response'), { then: 'not a function' })],
    'kernel.terminate': [10, () => (ran.push('terminate'), 'done')],
  });
  const run = createKernel({ '/': okController }, [sync]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  // Nothing awaited: the request ran to its end inside handle().
  t.is(run.kernel.activeRequests, 0);
  t.is(run.written[0]?.body, 'ok');
  t.deepEqual(ran, ['request', 'controller', 'response', 'terminate']);
  const states = phasesOf(run.terminated[0]);
  t.deepEqual(states, ROUTED_STATES);
  t.is(new Set(states).size, states.length, 'no state entered twice');
});

test('requests one after the other each get a full pass through the phases, with a trace of their own', (t) => {
  const run = createKernel({ '/': okController, '/data': dataController });
  for (const path of ['/', '/missing', '/data', '/', '/missing']) run.kernel.handle(requestData({ path }), connection(run));
  const mains = run.terminated.filter((exchange) => exchange.isMainRequest);
  t.is(mains.length, 5);
  t.deepEqual(phasesOf(mains[0]), ROUTED_STATES);
  t.deepEqual(phasesOf(mains[1]), ERROR_PAGE_STATES);
  t.deepEqual(phasesOf(mains[2]).slice(0, 5), ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'controller', 'kernel.view']);
  t.deepEqual(phasesOf(mains[3]), ROUTED_STATES);
  t.deepEqual(phasesOf(mains[4]), ERROR_PAGE_STATES);
  t.deepEqual(
    run.written.map((response) => response.status),
    [200, 404, 200, 200, 404],
  );
  t.not(mains[0]?.trace, mains[3]?.trace);
  t.is(run.kernel.activeRequests, 0);
});

test('a controller settling after its request was aborted does not reach the request its actor runs next', async (t) => {
  const settles: ((value: LoupeResponse) => void)[] = [];
  const late: Controller = { name: 'late', handle: () => new Promise<LoupeResponse>((resolve) => settles.push(resolve)) };
  const run = createKernel({ '/late': late });
  run.kernel.handle(requestData({ path: '/late' }), connection(run)).abort();
  // The same actor, idle again, takes the next request and waits for its own controller.
  run.kernel.handle(requestData({ path: '/late' }), connection(run));
  t.is(run.kernel.activeRequests, 1);
  settles[0]?.(new LoupeResponse('the aborted request'));
  await new Promise((resolve) => setImmediate(resolve));
  t.is(run.written.length, 0, 'the first settle is not the second request');
  t.is(run.kernel.activeRequests, 1);
  settles[1]?.(new LoupeResponse('the second request'));
  await run.kernel.whenIdle();
  t.deepEqual(
    run.written.map((response) => response.body),
    ['the second request'],
  );
});

test('an abort that arrives after its request ended changes nothing for the next one', (t) => {
  const run = createKernel({ '/': okController });
  const first = run.kernel.handle(requestData({ path: '/' }), connection(run));
  const second = run.kernel.handle(requestData({ path: '/' }), connection(run));
  first.abort();
  second.abort();
  t.is(run.written.length, 2);
  t.false(run.terminated.some((exchange) => exchange.aborted));
  t.is(run.kernel.activeRequests, 0);
});

test('an abort while the error sub-request waits leaves the sub-request actor ready for the next error', async (t) => {
  const gate = deferred();
  let calls = 0;
  const slowErrorController: Controller = {
    name: 'error_controller',
    handle: async () => {
      calls++;
      if (calls === 1) await gate.promise;
      return new LoupeResponse('error page', 404);
    },
  };
  const run = createKernel({}, [], slowErrorController);
  run.kernel.handle(requestData({ path: '/first' }), connection(run)).abort();
  t.is(run.kernel.activeRequests, 0, 'the aborted request is over, its sub-request abandoned');
  run.kernel.handle(requestData({ path: '/second' }), connection(run));
  await run.kernel.whenIdle();
  t.deepEqual(
    run.written.map((response) => [response.status, response.body]),
    [[404, 'error page']],
  );
  gate.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  t.is(run.written.length, 1, 'the abandoned sub-request writes nothing when its controller settles');
  const mains = run.terminated.filter((exchange) => exchange.isMainRequest);
  t.deepEqual(phasesOf(mains[0]), ['kernel.request', 'kernel.exception', 'error_sub_request', 'aborted', 'kernel.terminate']);
  t.deepEqual(phasesOf(mains[1]), ERROR_PAGE_STATES);
});
