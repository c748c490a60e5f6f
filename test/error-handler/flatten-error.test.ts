import test from 'ava';
import { errorStatus, flattenError } from '../../src/error-handler/flatten-error';
import {
  BadRequestHttpError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  UnauthorizedHttpError,
} from '../../src/errors/http-error';
import { LoupeError } from '../../src/errors/loupe-error';
import { withoutStackTraces } from '../../src/errors/without-stack-traces';

function throwHere(): never {
  throw new TypeError('thrown here');
}

test('an HttpError gives its class, message, code, status and status text', (t) => {
  const flat = flattenError(new NotFoundHttpError('No route found for "GET http://127.0.0.1:8000/x"'));
  t.is(flat.class, 'NotFoundHttpError');
  t.is(flat.message, 'No route found for "GET http://127.0.0.1:8000/x"');
  t.is(flat.code, 'LOUPE_ERR_HTTP_NOT_FOUND');
  t.is(flat.statusCode, 404);
  t.is(flat.statusText, 'Not Found');
  t.deepEqual(flat.headers, {});
  t.deepEqual(flat.previous, []);
});

test('one of Loupe\'s errors made without a stack is flattened as one made with it, but for the trace', (t) => {
  const message = 'No route found for "GET http://127.0.0.1:8000/x"';
  const stackless = [
    withoutStackTraces(() => new NotFoundHttpError(message)),
    withoutStackTraces(() => new MethodNotAllowedHttpError(['get'], 'nope')),
    withoutStackTraces(() => new LoupeError('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'No routes found for "/x/".')),
  ];
  const made = [new NotFoundHttpError(message), new MethodNotAllowedHttpError(['get'], 'nope'), new LoupeError('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'No routes found for "/x/".')];
  stackless.forEach((error, i) => {
    const flat = flattenError(error);
    t.deepEqual(flat, { ...flattenError(made[i]), trace: [] });
    t.deepEqual(flattenError(error, { trace: false }), flat);
  });
  t.deepEqual(flattenError(stackless[1]).headers, { Allow: 'GET' });
});

test('a Proxy around a stackless error whose reads throw is still flattened, its reads guarded', (t) => {
  const error = withoutStackTraces(() => new NotFoundHttpError('x'));
  const hostile = new Proxy(error, {
    get: (target, key, receiver) => {
      if (key === 'message') throw new Error('no message');
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const flat = flattenError(hostile);
  t.is(flat.class, 'NotFoundHttpError');
  t.is(flat.message, '');
  t.is(flat.statusCode, 404);
});

test('HttpError headers are kept: Allow for 405, WWW-Authenticate for 401', (t) => {
  const flat405 = flattenError(new MethodNotAllowedHttpError(['get', 'head'], 'nope'));
  t.is(flat405.statusCode, 405);
  t.is(flat405.statusText, 'Method Not Allowed');
  t.deepEqual(flat405.headers, { Allow: 'GET, HEAD' });
  t.deepEqual(flattenError(new UnauthorizedHttpError('who?', 'Basic realm="x"')).headers, { 'WWW-Authenticate': 'Basic realm="x"' });
  t.is(flattenError(new BadRequestHttpError('bad')).statusCode, 400);
});

test('a LoupeError that is not an HttpError gives its status; other errors 500 and no code', (t) => {
  const routing = flattenError(new LoupeError('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'No routes found for "/x/".'));
  t.is(routing.class, 'LoupeError');
  t.is(routing.statusCode, 404);
  t.is(routing.code, 'LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND');
  const plain = flattenError(Object.assign(new Error('boom'), { code: 'ECONNREFUSED' }));
  t.is(plain.class, 'Error');
  t.is(plain.statusCode, 500);
  t.is(plain.statusText, 'Internal Server Error');
  t.is(plain.code, null);
  t.is(flattenError(new RangeError('r')).class, 'RangeError');
});

test('a status without a reason phrase gets Symfony\'s fallback text', (t) => {
  class TeapotError extends LoupeError {
    override readonly statusCode = 499;
  }
  t.is(flattenError(new TeapotError('LOUPE_ERR_HTTP_INTERNAL', 'short and stout')).statusText, 'Whoops, looks like something went wrong.');
});

test('the first frame is where the error was created', (t) => {
  let error: unknown;
  try {
    throwHere();
  } catch (caught) {
    error = caught;
  }
  const flat = flattenError(error);
  t.is(flat.class, 'TypeError');
  t.is(flat.trace[0]?.function, 'throwHere');
  t.regex(flat.trace[0]?.file ?? '', /flatten-error\.test\.ts$/);
  t.true((flat.trace[0]?.line ?? 0) > 0);
  t.true((flat.trace[0]?.column ?? 0) > 0);
});

test('stack frames are capped at 50', (t) => {
  const error = new Error('deep');
  error.stack = `Error: deep\n${Array.from({ length: 80 }, (_, i) => `    at f${i} (/app/a.ts:${i + 1}:1)`).join('\n')}`;
  const flat = flattenError(error);
  t.is(flat.trace.length, 50);
  t.deepEqual(flat.trace[0], { function: 'f0', file: '/app/a.ts', line: 1, column: 1 });
});

test('the cause chain becomes previous, outermost cause first', (t) => {
  const inner = new LoupeError('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'No routes found for "/config.yaml/".');
  const middle = new RangeError('middle', { cause: inner });
  const flat = flattenError(new NotFoundHttpError('No route found for "GET /config.yaml"', { cause: middle }));
  t.deepEqual(
    flat.previous.map((e) => [e.class, e.message]),
    [
      ['RangeError', 'middle'],
      ['LoupeError', 'No routes found for "/config.yaml/".'],
    ],
  );
  t.is(flat.previous[1]?.statusCode, 404);
});

test('a cycle in the cause chain is cut and the chain is capped at ten', (t) => {
  const a = new Error('a');
  const b = new Error('b', { cause: a });
  Object.defineProperty(a, 'cause', { value: b });
  t.deepEqual(flattenError(a).previous.map((e) => e.message), ['b']);

  let chain: Error = new Error('e0');
  for (let i = 1; i < 30; i++) chain = new Error(`e${i}`, { cause: chain });
  t.is(flattenError(chain).previous.length, 10);
});

test('non-Error values flatten as NonError with a 500', (t) => {
  t.like(flattenError('plain string'), { class: 'NonError', message: 'plain string', statusCode: 500, code: null });
  t.is(flattenError(42).message, '42');
  t.is(flattenError(null).message, 'null');
  t.is(flattenError(undefined).message, 'undefined');
  t.is(flattenError({ message: 'looks like an error' }).message, 'looks like an error');
  t.is(flattenError(Object.create(null)).class, 'NonError');
  t.is(flattenError(Symbol('s')).message, 'Symbol(s)');
  t.deepEqual(flattenError('x').trace, []);
});

test('a non-Error cause is kept in the chain', (t) => {
  t.deepEqual(flattenError(new Error('outer', { cause: 'because' })).previous.map((e) => [e.class, e.message]), [['NonError', 'because']]);
});

test('throwing getters, a frozen error and a hostile Proxy do not break flattening', (t) => {
  const error = new Error('with traps');
  // stack first: redefining it formats the old stack, which would read the trapped message.
  for (const key of ['stack', 'message', 'cause', 'code', 'constructor']) {
    Object.defineProperty(error, key, {
      get: () => {
        throw new Error(`getter ${key}`);
      },
    });
  }
  const flat = flattenError(error);
  t.is(flat.class, 'Error');
  t.deepEqual(flat.trace, []);
  t.deepEqual(flat.previous, []);

  const frozen = Object.freeze(new NotFoundHttpError('frozen', { cause: Object.freeze(new Error('inner')) }));
  t.is(flattenError(frozen).previous[0]?.message, 'inner');

  const hostile = new Proxy(
    {},
    {
      get: () => {
        throw new Error('get');
      },
      getPrototypeOf: () => {
        throw new Error('proto');
      },
    },
  );
  t.notThrows(() => flattenError(hostile));
  t.is(flattenError(hostile).statusCode, 500);
  const throwingToString = { toString: () => { throw new Error('no'); } };
  t.is(flattenError(throwingToString).message, '[object Object]');
});

test('errorStatus gives the status line and headers flattenError gives, for anything thrown', (t) => {
  const hostile = new Proxy(new Error('trap'), {
    getPrototypeOf: () => {
      throw new Error('getPrototypeOf');
    },
  });
  const thrown: unknown[] = [
    new NotFoundHttpError('missing'),
    new MethodNotAllowedHttpError(['GET', 'PUT'], 'wrong method'),
    new UnauthorizedHttpError('who?', 'Basic realm="x"'),
    new LoupeError('LOUPE_ERR_HTTP_BAD_REQUEST', 'bad'),
    new TypeError('bug'),
    'a string',
    null,
    hostile,
  ];
  for (const error of thrown) {
    const { statusCode, statusText, headers } = flattenError(error, { trace: false });
    t.deepEqual(errorStatus(error), { statusCode, statusText, headers });
  }
  t.deepEqual(errorStatus(new MethodNotAllowedHttpError(['GET'], 'x')), { statusCode: 405, statusText: 'Method Not Allowed', headers: { Allow: 'GET' } });
});
