import test from 'ava';
import { MethodNotAllowedHttpError, NotFoundHttpError } from '../../src/errors/http-error';
import { LoupeError } from '../../src/errors/loupe-error';
import { withoutStackTraces } from '../../src/errors/without-stack-traces';
import { ResourceNotFoundError } from '../../src/routing/resource-not-found-error';

const frameLines = (error: unknown): string[] => String((error as Error).stack).split('\n').filter((line) => /^\s+at /.test(line));

test("Loupe's errors made inside have a stack of their name and message alone, and are errors as any other", (t) => {
  const cause = new Error('below');
  const error = withoutStackTraces(() => new NotFoundHttpError('No route found for "GET /nope"', { cause }));
  t.true(error instanceof NotFoundHttpError);
  t.true(error instanceof LoupeError);
  t.true(error instanceof Error);
  t.is(error.stack, 'NotFoundHttpError: No route found for "GET /nope"');
  t.is(String(error), 'NotFoundHttpError: No route found for "GET /nope"');
  t.is(error.name, 'NotFoundHttpError');
  t.is(error.code, 'LOUPE_ERR_HTTP_NOT_FOUND');
  t.is(error.statusCode, 404);
  t.is(error.cause, cause);
  t.false(error.expose);
  // As Error makes them: message and cause own and not enumerable; the subclasses' fields as usual.
  t.deepEqual(Object.keys(error), ['code', 'statusCode', 'headers', 'expose']);
  t.false(Object.getOwnPropertyDescriptor(error, 'message')?.enumerable);
  const notAllowed = withoutStackTraces(() => new MethodNotAllowedHttpError(['get', 'put'], 'Method Not Allowed'));
  t.deepEqual(notAllowed.allowedMethods, ['GET', 'PUT']);
  t.deepEqual(notAllowed.headers, { Allow: 'GET, PUT' });
  t.false('cause' in notAllowed);
  t.is(withoutStackTraces(() => new ResourceNotFoundError('/nope')).stack, 'ResourceNotFoundError: No routes found for "/nope".');
});

test('nothing global changes: other errors made inside keep their frames, and Error.stackTraceLimit is never written', (t) => {
  const limit = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit');
  const [plain, loupe] = withoutStackTraces(() => [new Error('an application error'), new LoupeError('LOUPE_ERR_HTTP_NOT_FOUND', 'x')]);
  t.true(frameLines(plain).length > 0);
  t.deepEqual(frameLines(loupe), []);
  t.deepEqual(Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit'), limit);
});

test('the setting is back once the call returns or throws, also nested', (t) => {
  t.throws(() =>
    withoutStackTraces(() => {
      withoutStackTraces(() => undefined);
      t.deepEqual(frameLines(new LoupeError('LOUPE_ERR_HTTP_NOT_FOUND', 'inner')), [], 'still without inside the outer call');
      throw new Error('out');
    }),
  );
  t.true(frameLines(new LoupeError('LOUPE_ERR_HTTP_NOT_FOUND', 'after')).length > 0);
});
