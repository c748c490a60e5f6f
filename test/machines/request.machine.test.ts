import test from 'ava';
import { NotFoundHttpError } from '../../src/errors/http-error';
import { type Connection } from '../../src/http/connection';
import { Response } from '../../src/http/response';
import { type Controller } from '../../src/kernel/controller';
import { type Exchange } from '../../src/kernel/exchange';
import { Kernel } from '../../src/kernel/kernel';
import { type Listener } from '../../src/kernel/listener';
import { requestData } from '../helpers/request-data';

const okController: Controller = { name: 'ok', handle: () => new Response('ok') };
const dataController: Controller = { name: 'data', handle: () => ({ hello: 'world' }) };
const nothingController: Controller = { name: 'nothing', handle: () => undefined };
const asyncController: Controller = { name: 'async', handle: async () => new Response('later') };
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
  readonly written: Response[];
  readonly kernel: Kernel;
}

/**
 * A kernel whose routing is a table lookup, whose view listener makes JSON, and which records
 * each terminated exchange; the error controller renders `status message`.
 */
function createKernel(routes: Readonly<Record<string, Controller>>, extra: Listener[] = [], errorController?: Controller): Run {
  const terminated: Exchange[] = [];
  const written: Response[] = [];
  const listeners: Listener[] = [
    {
      name: 'TableRouter',
      subscriptions: {
        'kernel.request': {
          priority: 32,
          handle: (exchange) => {
            if (exchange.controller !== null) return;
            const controller = routes[exchange.request.path];
            if (controller === undefined) throw new NotFoundHttpError(`No route for ${exchange.request.path}`);
            exchange.controller = controller;
          },
        },
      },
    },
    {
      name: 'View',
      subscriptions: {
        'kernel.view': {
          priority: 0,
          handle: (exchange) => {
            if (exchange.controllerResult !== undefined) exchange.response = Response.json(exchange.controllerResult);
          },
        },
      },
    },
    { name: 'Recorder', subscriptions: { 'kernel.terminate': { priority: 0, handle: (exchange) => void terminated.push(exchange) } } },
    ...extra,
  ];
  const kernel = new Kernel({
    defaultLocale: 'en',
    listeners,
    errorController: errorController ?? {
      name: 'error_controller',
      handle: ({ error }) => {
        const status = error instanceof NotFoundHttpError ? 404 : 500;
        return new Response(`${status} ${error instanceof Error ? error.message : String(error)}`, status);
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

const phasesOf = (exchange: Exchange | undefined): string[] => (exchange?.trace.states ?? []).map((state) => state.name);

test('a routed request goes through every phase in order, once', (t) => {
  const run = createKernel({ '/': okController });
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  t.deepEqual(phasesOf(run.terminated[0]), [
    'received',
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'kernel.response',
    'kernel.finish_request',
    'sending',
    'kernel.terminate',
  ]);
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
  t.deepEqual(phasesOf(main).slice(0, 6), [
    'received',
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
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
  t.deepEqual(phasesOf(main), [
    'received',
    'kernel.request',
    'kernel.exception',
    'error_sub_request',
    'kernel.response',
    'kernel.finish_request',
    'sending',
    'kernel.terminate',
  ]);
  t.is(sub?.parent, main);
  t.deepEqual(phasesOf(sub), [
    'received',
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'kernel.response',
    'kernel.finish_request',
  ]);
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

test('an async controller waits in controller_pending, then goes on', async (t) => {
  const run = createKernel({ '/async': asyncController });
  run.kernel.handle(requestData({ path: '/async' }), connection(run));
  t.is(run.kernel.activeRequests, 1);
  await run.kernel.whenIdle();
  t.deepEqual(phasesOf(run.terminated[0]).slice(3, 6), ['kernel.controller_arguments', 'controller_pending', 'controller_settled']);
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
  t.deepEqual(phasesOf(main).slice(1, 5), ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'kernel.exception']);
  t.true(phasesOf(main).includes('error_sub_request'));
  t.true(main?.trace.logs.some((log) => log.level === 'critical') ?? false);
});

test('a failing kernel.response listener after an error page ends with the minimal 500, without looping', (t) => {
  const breaksResponses: Listener = {
    name: 'Breaks',
    subscriptions: {
      'kernel.response': {
        priority: 0,
        handle: (exchange) => {
          if (exchange.isMainRequest) throw new Error('response listener failed');
        },
      },
    },
  };
  const run = createKernel({ '/': okController }, [breaksResponses]);
  run.kernel.handle(requestData({ path: '/' }), connection(run));
  const main = run.terminated.find((exchange) => exchange.isMainRequest);
  t.is(run.written[0]?.status, 500);
  t.is(phasesOf(main).filter((state) => state === 'kernel.exception').length, 2);
  t.is(run.kernel.activeRequests, 0);
});

test('a response set at kernel.request skips the controller', (t) => {
  const shortCircuit: Listener = {
    name: 'ShortCircuit',
    subscriptions: { 'kernel.request': { priority: 64, handle: (exchange) => void (exchange.response = new Response('early', 200)) } },
  };
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
  t.deepEqual(phasesOf(run.terminated[0]).slice(-3), ['controller_pending', 'aborted', 'kernel.terminate']);
  t.true(run.terminated[0]?.aborted);
});

test('an async controller settling after an abort is ignored', async (t) => {
  let settle: (value: Response) => void = () => undefined;
  const late: Controller = { name: 'late', handle: () => new Promise<Response>((resolve) => (settle = resolve)) };
  const run = createKernel({ '/late': late });
  run.kernel.handle(requestData({ path: '/late' }), connection(run)).abort();
  settle(new Response('too late'));
  await new Promise((resolve) => setImmediate(resolve));
  t.is(run.written.length, 0);
  t.is(run.kernel.activeRequests, 0);
});

test('listeners are timed per phase, highest priority first', (t) => {
  const order: string[] = [];
  const make = (name: string, priority: number): Listener => ({
    name,
    subscriptions: { 'kernel.response': { priority, handle: () => void order.push(name) } },
  });
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
    listeners: [],
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
