import test from 'ava';
import { performance } from 'node:perf_hooks';
import { flattenError } from '../../../src/error-handler/flatten-error';
import { NotFoundHttpError } from '../../../src/errors/http-error';
import { type Connection } from '../../../src/http/connection';
import { type RequestData } from '../../../src/http/request-data';
import { LoupeResponse } from '../../../src/http/response';
import { type Session } from '../../../src/http/session';
import { type Controller } from '../../../src/kernel/controller';
import { type Exchange } from '../../../src/kernel/exchange';
import { Kernel, type RunningRequest } from '../../../src/kernel/kernel';
import { KernelAttributes } from '../../../src/kernel/kernel-attributes';
import { defineListener, type Listener } from '../../../src/kernel/listener';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { collectProfile } from '../../../src/profiler/collect/collect-profile';
import { type ProfileCollector } from '../../../src/profiler/collector';
import { defaultCollectors } from '../../../src/profiler/collect/collectors/default-collectors';
import { type Profile } from '../../../src/profiler/profile';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { PROFILE_TOKEN } from '../../../src/profiler/collect/profile-token';
import { roundMs } from '../../../src/profiler/collect/collectors/timings';
import { eventsOf } from '../../../src/profiler/collect/collectors/events-view';
import { machineOf } from '../../../src/profiler/collect/collectors/machine-view';
import { resolveParentErrors } from '../../../src/profiler/ui/resolve-parent-errors';
import { REDACTED, RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';
import { entries } from '../../helpers/profile-entries';
import { requestData } from '../../helpers/request-data';

interface Route {
  readonly name: string;
  readonly controller: Controller;
  readonly params?: Readonly<Record<string, string>>;
}

/** What one request through the kernel left behind: the profiles collected at kernel.terminate. */
interface Collected {
  readonly main: Profile;
  readonly sub: Profile | null;
  readonly exchange: Exchange;
  readonly written: LoupeResponse[];
}

const MAIN_TOKEN = 'a1b2c3';
const SUB_TOKEN = 'd4e5f6';

/** The error controller renders `status message` with the error's status. */
const errorController: Controller = {
  name: 'error_controller',
  handle: ({ error }) => {
    const flat = flattenError(error, { trace: false });
    return new LoupeResponse(`${flat.statusCode} ${flat.message}`, flat.statusCode);
  },
};

/** Routes by path, as the router listener does: `_route`, `_controller` and the params as attributes. */
function tableRouter(routes: Readonly<Record<string, Route>>): Listener {
  return defineListener('TableRouter', {
    'kernel.request': [
      32,
      ({ request, isMainRequest }) => {
        if (!isMainRequest) return;
        const route = routes[request.path];
        if (route === undefined) throw new NotFoundHttpError(`No route found for "${request.method} ${request.uri}"`);
        request.attributes.set('_route', route.name);
        request.attributes.set('_controller', route.controller.name);
        for (const [key, value] of Object.entries(route.params ?? {})) request.attributes.set(key, value);
      },
    ],
  });
}

/** Sets the exchange's controller from `_controller` (the router listener only names it). */
function controllerResolver(routes: Readonly<Record<string, Route>>): Listener {
  return defineListener('ControllerResolver', {
    'kernel.request': [
      0,
      ({ exchange, request }) => {
        const route = Object.values(routes).find((candidate) => candidate.name === request.attributes.get('_route'));
        if (route !== undefined) exchange.controller = route.controller;
      },
    ],
  });
}

interface RunOptions {
  readonly extra?: readonly Listener[];
  readonly secretCookies?: ReadonlySet<string>;
  readonly redaction?: RedactionPolicy;
  /** Collectors run after the default ones. */
  readonly collectors?: readonly ProfileCollector[];
  /** What the fake connection answers: false when the client is gone. */
  readonly writable?: boolean;
  /** Called once the request runs, e.g. to abort it. */
  readonly whileRunning?: (running: RunningRequest) => void;
  /** Gives the exchanges their tokens first, as the profiler listener does at kernel.response. */
  readonly tokens?: boolean;
}

/**
 * Runs `data` through a real Kernel with a table router and a fake connection, and collects
 * the profiles at kernel.terminate as the profiler listener does (priority -1024).
 */
/** `profile` as its readers take it once stored: written as JSON and read by parseProfile. */
function stored(profile: Profile): Profile {
  const parsed = parseProfile(JSON.stringify(profile));
  if (!parsed.ok) throw new Error(`The profile ${profile.token} does not read back: ${parsed.error}.`);
  return parsed.profile;
}

async function run(routes: Readonly<Record<string, Route>>, data: RequestData, options: RunOptions = {}): Promise<Collected> {
  const written: LoupeResponse[] = [];
  const crashes: unknown[] = [];
  const collected: Omit<Collected, 'written'>[] = [];
  const collectors = [...defaultCollectors({ secretCookies: options.secretCookies ?? new Set<string>() }), ...(options.collectors ?? [])];
  const redaction = options.redaction ?? new RedactionPolicy();
  const collector = defineListener('Collector', {
    'kernel.terminate': [
      -1024,
      ({ exchange }) => {
        const sub = exchange.subRequest;
        if (options.tokens === true) {
          exchange.attributes.set(PROFILE_TOKEN, MAIN_TOKEN);
          sub?.attributes.set(PROFILE_TOKEN, SUB_TOKEN);
        }
        collected.push({
          exchange,
          main: stored(collectProfile(exchange, { token: MAIN_TOKEN, parent: null, children: sub === null ? [] : [SUB_TOKEN], collectors, redaction })),
          sub: sub === null ? null : stored(collectProfile(sub, { token: SUB_TOKEN, parent: MAIN_TOKEN, children: [], collectors, redaction })),
        });
      },
    ],
  });
  const kernel = new Kernel({
    defaultLocale: 'en',
    errorController,
    listeners: new ListenerRegistry([tableRouter(routes), controllerResolver(routes), collector, ...(options.extra ?? [])]),
    onCrash: (error) => crashes.push(error),
  });
  const connection: Connection = {
    write: (response) => {
      written.push(response);
      return options.writable ?? true;
    },
  };
  const running = kernel.handle(data, connection);
  options.whileRunning?.(running);
  await kernel.whenIdle();
  if (crashes.length > 0) throw crashes[0];
  const [result, ...more] = collected;
  if (result === undefined || more.length > 0) throw new Error(`kernel.terminate was reached ${collected.length} times, not once`);
  return { ...result, written };
}

/** A listener that only takes time in one phase, so that the trace has listeners to time. */
const busy = (phase: 'kernel.request' | 'kernel.response', priority: number): Listener => {
  const spin = (): void => {
    const until = performance.now() + 0.2;
    while (performance.now() < until);
  };
  return defineListener(`Busy ${phase}`, phase === 'kernel.request' ? { 'kernel.request': [priority, spin] } : { 'kernel.response': [priority, spin] });
};

const decimals = (value: number): number => String(value).split('.')[1]?.length ?? 0;

const hello: Route = {
  name: 'hello',
  controller: { name: 'hello.hello', handle: () => new LoupeResponse('Hello anna', 201, { 'X-Answer': 'yes' }) },
  params: { name: 'anna' },
};

test('a routed request: tokens as given, method, URL with its query, status from the sent response', async (t) => {
  const { main, sub, exchange } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna', query: 'x=1&x=2&y=3' }));
  t.is(sub, null);
  t.is(main.token, MAIN_TOKEN);
  t.is(main.parent, null);
  t.deepEqual(main.children, []);
  t.is(main.type, 'main');
  t.is(main.ip, '127.0.0.1');
  t.is(main.method, 'GET');
  t.is(main.url, 'http://127.0.0.1:8000/hello/anna?x=1&x=2&y=3');
  t.is(main.time, exchange.trace.startedAt);
  t.is(main.statusCode, 201);
  t.false(main.aborted);
  const { request, exception } = entries(main);
  t.deepEqual(request.query, { x: ['1', '2'], y: '3' });
  t.is(request.locale, 'en');
  t.is(request.body, null);
  t.is(request.session, null);
  t.is(request.user, null);
  t.deepEqual(request.response, { statusCode: 201, headers: { 'X-Answer': 'yes' } });
  t.deepEqual(exception.errors, []);
  t.deepEqual(main.profilerCost, { collect: 0 });
});

test('phases are the kernel.* states in order; states add controller and kernel.terminate', async (t) => {
  const { main } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }));
  const { states } = entries(main).machine;
  const { phases } = entries(main).events;
  const names = states.map((state) => state.name);
  t.deepEqual(names, [
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'controller',
    'kernel.response',
    'kernel.finish_request',
    'kernel.terminate',
  ]);
  t.deepEqual(
    phases.map((phase) => phase.name),
    ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'kernel.response', 'kernel.finish_request', 'kernel.terminate'],
  );
  const byName = new Map(states.map((state) => [state.name, state]));
  t.deepEqual(phases, phases.map((phase) => byName.get(phase.name)), 'a phase is the state of the same name');
  for (const [previous, next] of states.slice(0, -1).map((state, i) => [state, states[i + 1]] as const)) {
    t.true(next !== undefined && next.start >= previous.start, `${next?.name} starts after ${previous.name}`);
  }
  const last = states.at(-1);
  t.is(main.duration, last === undefined ? -1 : Math.round((last.start + last.duration) * 1000) / 1000);
});

test('listeners are recorded per phase with non-negative timings rounded to the microsecond', async (t) => {
  const { main, exchange } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }), {
    extra: [busy('kernel.request', 100), busy('kernel.response', 0)],
  });
  const { listeners } = entries(main).events;
  t.deepEqual(
    listeners.map(({ phase, name, priority }) => [phase, name, priority]),
    [
      ['kernel.request', 'Busy kernel.request', 100],
      ['kernel.request', 'TableRouter', 32],
      ['kernel.request', 'ControllerResolver', 0],
      ['kernel.response', 'Busy kernel.response', 0],
    ],
    'kernel.terminate listeners are still running when the profile is collected',
  );
  const raw = exchange.trace.listeners;
  t.true(raw.some((listener) => decimals(listener.duration) > 3), 'the raw trace is finer than the profile');
  for (const [i, listener] of listeners.entries()) {
    t.true(listener.start >= 0 && listener.duration >= 0, `${listener.name} has non-negative timings`);
    t.true(decimals(listener.start) <= 3 && decimals(listener.duration) <= 3, `${listener.name}: ${listener.start} / ${listener.duration}`);
    t.true(Math.abs(listener.duration - (raw[i]?.duration ?? Infinity)) <= 0.0005);
  }
  t.true((listeners[0]?.duration ?? 0) >= 0.2, 'the busy listener took its 0.2 ms');
  for (const state of entries(main).machine.states) t.true(state.start >= 0 && state.duration >= 0 && decimals(state.start) <= 3 && decimals(state.duration) <= 3);
});

/** What the events and machine collectors stored before the timeline held their data, computed as they did at collection. */
const storedBeforeTimelineViews: ProfileCollector = {
  name: 'before',
  collect: (exchange) => {
    const states = exchange.trace.states.map((state) => ({ name: state.name, start: roundMs(state.start), duration: roundMs(state.duration) }));
    return {
      events: {
        phases: states.filter((state) => state.name.startsWith('kernel.')),
        listeners: exchange.trace.listeners.map((listener) => ({ ...listener, start: roundMs(listener.start), duration: roundMs(listener.duration) })),
      },
      machine: { states },
    };
  },
};

test("the phases, listeners and states read from the timeline are what the events and machine collectors stored, for a request and its error sub-request", async (t) => {
  const failing: Route = {
    name: 'fail',
    controller: {
      name: 'fail.fail',
      handle: () => {
        throw new Error('boom');
      },
    },
  };
  for (const [routes, data] of [
    [{ '/hello/anna': hello }, requestData({ path: '/hello/anna' })],
    [{ '/fail': failing }, requestData({ method: 'POST', path: '/fail' })],
  ] as const) {
    const { main, sub } = await run(routes, data, { collectors: [storedBeforeTimelineViews], extra: [busy('kernel.request', 100), busy('kernel.response', 0)] });
    for (const profile of sub === null ? [main] : [main, sub]) {
      const before = profile.collectors['before'] as { events: unknown; machine: unknown };
      t.deepEqual(entries(profile).events, before.events, `${profile.type} ${data.path}: events`);
      t.deepEqual(entries(profile).machine, before.machine, `${profile.type} ${data.path}: machine`);
      t.false('events' in profile.collectors || 'machine' in profile.collectors, 'stored once, in the timeline');
    }
  }
});

test('a profile stored with events and machine entries (before the timeline held them) is read from them', (t) => {
  const events = { phases: [{ name: 'kernel.request', start: 0, duration: 1 }], listeners: [{ phase: 'kernel.request', name: 'Old', priority: 7, start: 0, duration: 1 }] };
  const machine = { states: [{ name: 'kernel.request', start: 0, duration: 1 }] };
  const profile = { token: 'aaaaaa', collectors: { events, machine, timeline: { total: 5, spans: [], droppedSpans: 0 } } } as unknown as Profile;
  t.deepEqual(eventsOf(profile), events);
  t.deepEqual(machineOf(profile), machine);
});

test('routing comes from _route, _controller and the string attributes', async (t) => {
  const { main } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }));
  t.deepEqual(entries(main).router, {
    route: 'hello',
    controller: 'hello.hello',
    params: { _route: 'hello', _controller: 'hello.hello', name: 'anna' },
    failure: null,
    // A table router leaves no router to ask for the pattern, the defaults or the routes tried.
    path: null,
    defaults: {},
    matching: null,
  });
});

test('an unrouted request records why nothing matched', async (t) => {
  const { main, sub } = await run({}, requestData({ path: '/config.yaml' }));
  t.is(entries(main).router.route, null);
  t.is(entries(main).router.failure, 'No route found for "GET http://127.0.0.1:8000/config.yaml"');
  t.is(main.statusCode, 404);
  t.is(sub?.statusCode, 404);
});

test('an error sub-request: type sub, parent as given, a GET, the rendered error with its previous chain', async (t) => {
  const failing: Route = {
    name: 'fail',
    controller: {
      name: 'fail.fail',
      handle: () => {
        throw new Error('the order could not be saved', { cause: new TypeError('price is not a number', { cause: new RangeError('NaN') }) });
      },
    },
  };
  const { main, sub, exchange } = await run({ '/fail': failing }, requestData({ method: 'POST', path: '/fail' }));
  if (sub === null) return t.fail('no sub-request profile');
  t.is(sub.token, SUB_TOKEN);
  t.is(sub.parent, MAIN_TOKEN);
  t.deepEqual(sub.children, []);
  t.is(sub.type, 'sub');
  t.is(sub.method, 'GET');
  t.is(sub.url, 'http://127.0.0.1:8000/fail');
  t.is(sub.statusCode, 500, 'a sub-request is never sent itself: its status is its response');
  t.is(entries(sub).router.controller, 'error_controller');
  t.is(entries(sub).router.route, null);
  t.deepEqual(
    entries(sub).events.phases.map((phase) => phase.name),
    ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'kernel.response', 'kernel.finish_request'],
  );
  t.is(entries(sub).exception.errors.length, 1);
  const [rendered] = entries(sub).exception.errors;
  t.like(rendered, { class: 'Error', message: 'the order could not be saved', statusCode: 500 });
  t.deepEqual(
    rendered?.previous.map((entry) => [entry.class, entry.message]),
    [
      ['TypeError', 'price is not a number'],
      ['RangeError', 'NaN'],
    ],
  );
  t.is(exchange.subRequest?.renderedError, exchange.errors[0]);

  t.deepEqual(main.children, [SUB_TOKEN]);
  t.is(main.method, 'POST');
  t.is(main.statusCode, 500);
  t.deepEqual(
    entries(main).exception.errors.map((error) => error.message),
    ['the order could not be saved'],
  );
  t.true(entries(main).machine.states.some((state) => state.name === 'error_sub_request'));
  t.true(entries(main).events.phases.some((phase) => phase.name === 'kernel.exception'));
});

test("with its parent profiled, the error sub-request's profile refers to the error the parent's records; put back, it is the same", async (t) => {
  const failing: Route = {
    name: 'fail',
    controller: {
      name: 'fail.fail',
      handle: () => {
        throw new Error('the order could not be saved', { cause: new TypeError('price is not a number') });
      },
    },
  };
  const { main, sub } = await run({ '/fail': failing }, requestData({ method: 'POST', path: '/fail' }), { tokens: true });
  if (sub === null) return t.fail('no sub-request profile');
  t.deepEqual(sub.collectors['exception'], { errors: [{ sameAs: { profile: MAIN_TOKEN, index: 0 } }] });
  t.is(entries(main).exception.errors[0]?.message, 'the order could not be saved');
  t.deepEqual(entries(resolveParentErrors(sub, main)).exception, entries(main).exception);
  const [missing] = entries(resolveParentErrors(sub, null)).exception.errors;
  t.like(missing, { class: 'ParentError', statusCode: 500 });
  t.true(missing?.message.includes(`profile ${MAIN_TOKEN} of its parent request, which is not stored`));
});

const echo: Route = {
  name: 'login',
  controller: {
    name: 'login.login',
    handle: () => new LoupeResponse('{}', 200, { 'Set-Cookie': 'LOUPESESSID=fresh; Path=/', 'Content-Type': 'application/json' }),
  },
};

test('secrets are redacted: Authorization, Cookie and Set-Cookie, cookies but the allowed ones, a JSON password, a token in the query', async (t) => {
  const body = Buffer.from(JSON.stringify({ username: 'anna', password: 'hunter2', profile: { api_key: 'k', theme: 'dark' } }));
  const { main } = await run(
    { '/login': echo },
    requestData({
      method: 'POST',
      path: '/login',
      query: 'token=abc&page=2',
      body,
      headers: {
        authorization: 'Basic YW5uYTpodW50ZXIy',
        cookie: 'LOUPESESSID=s3cr3t; REMEMBERME=r3m; theme=dark',
        'content-type': 'application/json',
      },
    }),
    { secretCookies: new Set(['LOUPESESSID', 'REMEMBERME']), redaction: new RedactionPolicy({ visibleCookies: ['theme', 'LOUPESESSID'] }) },
  );
  const { request } = entries(main);
  t.deepEqual(request.headers, { host: '127.0.0.1:8000', authorization: REDACTED, cookie: REDACTED, 'content-type': 'application/json' });
  t.deepEqual(request.cookies, { LOUPESESSID: REDACTED, REMEMBERME: REDACTED, theme: 'dark' });
  t.deepEqual(request.body, { username: 'anna', password: REDACTED, profile: { api_key: REDACTED, theme: 'dark' } });
  t.deepEqual(request.query, { token: REDACTED, page: '2' });
  t.deepEqual(request.response.headers, { 'Set-Cookie': REDACTED, 'Content-Type': 'application/json' });
  const json = JSON.stringify(main);
  for (const secret of ['hunter2', 'YW5uYTpodW50ZXIy', 's3cr3t', 'r3m', 'fresh']) t.false(json.includes(secret), `${secret} is not in the profile`);
});

test('a form body is recorded as fields, the password redacted', async (t) => {
  const { main } = await run(
    { '/login': echo },
    requestData({
      method: 'POST',
      path: '/login',
      body: Buffer.from('_username=anna&_password=hunter2&_remember_me=on'),
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    }),
  );
  t.deepEqual(entries(main).request.body, { _username: 'anna', _password: REDACTED, _remember_me: 'on' });
});

test('other bodies, and JSON that does not parse, are recorded as text', async (t) => {
  const text = await run({ '/login': echo }, requestData({ method: 'POST', path: '/login', body: Buffer.from('plain words'), headers: { 'content-type': 'text/plain' } }));
  t.is(entries(text.main).request.body, 'plain words');
  const broken = await run({ '/login': echo }, requestData({ method: 'POST', path: '/login', body: Buffer.from('{"a":'), headers: { 'content-type': 'application/json' } }));
  t.is(entries(broken.main).request.body, '{"a":');
  const empty = await run({ '/login': echo }, requestData({ method: 'POST', path: '/login', body: Buffer.alloc(0) }));
  t.is(entries(empty.main).request.body, null);
});

test('a body over 64 KiB is not recorded, only its size', async (t) => {
  const large = Buffer.from(JSON.stringify({ blob: 'x'.repeat(70_000) }));
  const { main } = await run({ '/login': echo }, requestData({ method: 'POST', path: '/login', body: large, headers: { 'content-type': 'application/json' } }));
  t.is(entries(main).request.body, `(${large.length} bytes, not recorded)`);
  const limit = Buffer.from(JSON.stringify({ blob: 'x'.repeat(64 * 1024 - 11) }));
  t.is(limit.length, 64 * 1024);
  const kept = await run({ '/login': echo }, requestData({ method: 'POST', path: '/login', body: limit, headers: { 'content-type': 'application/json' } }));
  t.is(typeof (entries(kept.main).request.body as Record<string, unknown>)['blob'], 'string', 'exactly 64 KiB is still recorded');
});

test('an aborted request has status 0 and aborted set; it went through aborted, never sending', async (t) => {
  const pending: Route = { name: 'slow', controller: { name: 'slow.slow', handle: () => new Promise(() => undefined) } };
  const { main, written } = await run({ '/slow': pending }, requestData({ path: '/slow' }), { whileRunning: (running) => running.abort() });
  t.is(written.length, 0);
  t.is(main.statusCode, 0);
  t.true(main.aborted);
  t.deepEqual(entries(main).request.response, { statusCode: 0, headers: {} });
  const names = entries(main).machine.states.map((state) => state.name);
  t.true(names.includes('aborted'));
  t.false(names.includes('kernel.finish_request'));
  t.is(entries(main).logs.records[0]?.level, 'warning');
});

test('a response the connection could not write has status 0 in the profile', async (t) => {
  const { main } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }), { writable: false });
  t.is(main.statusCode, 0);
  t.is(entries(main).request.response.statusCode, 201, 'the response that was built is still shown');
});

/** A session held in memory; only what collectProfile reads matters, the rest is plain. */
class MemorySession implements Session {
  readonly id = 'memory';
  isStarted = false;
  usageCount = 0;
  isDirty = false;
  readonly #attributes = new Map<string, unknown>();

  constructor(attributes: Readonly<Record<string, unknown>>) {
    for (const [key, value] of Object.entries(attributes)) this.#attributes.set(key, value);
  }

  start(): Promise<void> {
    this.isStarted = true;
    return Promise.resolve();
  }

  get(key: string): unknown {
    return this.#attributes.get(key);
  }

  set(key: string, value: unknown): void {
    this.#attributes.set(key, value);
    this.isDirty = true;
  }

  remove(key: string): void {
    this.#attributes.delete(key);
  }

  all(): Readonly<Record<string, unknown>> {
    return Object.fromEntries(this.#attributes);
  }
}

function withSession(session: Session): Listener {
  return defineListener('Session', {
    'kernel.request': [
      128,
      ({ attributes, isMainRequest }) => {
        if (isMainRequest) attributes.set(KernelAttributes.SESSION, session);
      },
    ],
  });
}

test('session attributes are recorded, redacted, only when the session was started', async (t) => {
  const untouched = new MemorySession({ user: 'anna' });
  const notStarted = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }), { extra: [withSession(untouched)] });
  t.is(entries(notStarted.main).request.session, null);

  const started = new MemorySession({ user: 'anna', _csrf_token: 'c', cart: { items: [1, 2] } });
  const usesSession: Route = {
    name: 'cart',
    controller: {
      name: 'cart.show',
      handle: async ({ session }) => {
        await session?.start();
        return new LoupeResponse('cart');
      },
    },
  };
  const { main } = await run({ '/cart': usesSession }, requestData({ path: '/cart' }), { extra: [withSession(started)] });
  t.deepEqual(entries(main).request.session, { user: 'anna', _csrf_token: REDACTED, cart: { items: [1, 2] } });
  t.not(entries(main).request.session, started.all());
});

test('the authenticated user and log records are copied, log contexts redacted', async (t) => {
  const roles = ['ROLE_ADMIN'];
  const logs = defineListener('Logs', {
    'kernel.request': [
      8,
      (event) => {
        event.attributes.set(KernelAttributes.USER, { identifier: 'admin', roles, via: 'http_basic' });
        event.log('info', 'Authenticated.', { user: 'admin', remember_me_token: 'abc' });
      },
    ],
  });
  const { main } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }), { extra: [logs] });
  const { request, logs: { records } } = entries(main);
  t.deepEqual(request.user, { identifier: 'admin', roles: ['ROLE_ADMIN'], via: 'http_basic' });
  t.not(request.user?.roles, roles);
  t.is(records.length, 1);
  t.like(records[0], { level: 'info', message: 'Authenticated.', context: { user: 'admin', remember_me_token: REDACTED } });
  t.true(decimals(records[0]?.at ?? 0.00001) <= 3);
});

test('the profile is a version 2 envelope with one entry per collector, under its name', async (t) => {
  const { main, exchange } = await run({ '/hello/anna': hello }, requestData({ path: '/hello/anna' }));
  t.is(collectProfile(exchange, { token: MAIN_TOKEN, parent: null, children: [], collectors: defaultCollectors({ secretCookies: new Set() }), redaction: new RedactionPolicy() }).version, 2);
  t.is(main.version, 1, 'read back, it is in the form of version 1, and says so');
  t.deepEqual(Object.keys(main.collectors), ['request', 'exception', 'logs', 'router', 'timeline', 'memory', 'db', 'http_client', 'redis']);
  t.deepEqual(Object.keys(main), ['version', 'token', 'parent', 'children', 'type', 'method', 'url', 'ip', 'statusCode', 'time', 'duration', 'aborted', 'collectors', 'profilerCost']);
});

test('an application collector is stored under its name; one that throws or answers no object loses only its own entry', async (t) => {
  const cart: ProfileCollector<{ path: string }> = { name: 'cart', collect: (exchange) => ({ path: exchange.request.path }) };
  const failing: ProfileCollector = {
    name: 'failing',
    collect: () => {
      throw new Error('the collector is broken');
    },
  };
  const list = { name: 'list', collect: () => [1, 2] };
  const { main, sub } = await run({}, requestData({ path: '/cart' }), { collectors: [cart, failing, list] });
  t.deepEqual(main.collectors['cart'], { path: '/cart' });
  t.deepEqual(sub?.collectors['cart'], { path: '/cart' }, 'the error sub-request is collected as well');
  t.false('failing' in main.collectors);
  t.false('list' in main.collectors);
  t.is(entries(main).router.failure, 'No route found for "GET http://127.0.0.1:8000/cart"', 'the other entries are all there');
});

test("an application collector's entry goes through the redaction policy: the data it copies by name, every string as text", async (t) => {
  const payment: ProfileCollector = {
    name: 'payment',
    collect: (exchange, redaction) => ({
      callback: `${exchange.request.uri}&signature=s1`,
      gateway: redaction.data({ merchant: 'm', apiKey: 'k1', card: { ssn: '123', number: '4111' } }),
    }),
  };
  const redaction = new RedactionPolicy({ names: ['ssn'] });
  const { main } = await run({}, requestData({ path: '/pay', query: 'order=7&token=t1' }), { collectors: [payment], redaction });
  t.deepEqual(main.collectors['payment'], {
    callback: `http://127.0.0.1:8000/pay?order=7&token=${REDACTED}&signature=${REDACTED}`,
    gateway: { merchant: 'm', apiKey: REDACTED, card: { ssn: REDACTED, number: '4111' } },
  });
  t.is(main.url, `http://127.0.0.1:8000/pay?order=7&token=${REDACTED}`);
  t.is(entries(main).router.failure, `No route found for "GET http://127.0.0.1:8000/pay?order=7&token=${REDACTED}"`, 'a message quoting the URL');
});
