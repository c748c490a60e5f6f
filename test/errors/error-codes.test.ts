import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, type ErrorCode } from '../../src/errors/error-codes';
import {
  BadRequestHttpError,
  ForbiddenHttpError,
  HttpError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  PayloadTooLargeHttpError,
  TooManyRequestsHttpError,
  UnauthorizedHttpError,
} from '../../src/errors/http-error';
import { LoupeError } from '../../src/errors/loupe-error';

const SRC = join(__dirname, '..', '..', 'src');
const REGISTRY = join(SRC, 'errors', 'error-codes.ts');

/** The text of every TypeScript file under src/ except the registry itself, by path. */
function sources(): ReadonlyMap<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    if (path !== REGISTRY) files.set(path, readFileSync(path, 'utf8'));
  }
  return files;
}

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

test('every code reads LOUPE_ERR_<AREA>_<PROBLEM>', (t) => {
  t.true(codes.length > 0);
  for (const code of codes) t.regex(code, /^LOUPE_ERR_[A-Z]+_[A-Z_]+$/);
});

test('every entry has an error status from 400 to 599 and a title', (t) => {
  for (const code of codes) {
    const { statusCode, title } = ERROR_CODES[code];
    t.true(Number.isInteger(statusCode) && statusCode >= 400 && statusCode <= 599, `${code}: ${statusCode}`);
    t.regex(String(statusCode), /^\d{3}$/);
    t.true(title.trim() !== '', `${code} has no title`);
  }
});

test('no two codes are the same, whatever their case', (t) => {
  t.is(new Set(codes.map((code) => code.toUpperCase())).size, codes.length);
});

test('the sources read by these checks are the real ones', (t) => {
  const files = sources();
  t.true(files.size > 10);
  t.true([...files.keys()].some((path) => path.endsWith(join('errors', 'http-error.ts'))));
});

test('every code used under src/ is in the registry', (t) => {
  for (const [path, text] of sources()) {
    for (const [used] of text.matchAll(/LOUPE_ERR_[A-Z][A-Z0-9_]*/g)) {
      t.true(used in ERROR_CODES, `${path} uses ${used}, which is not registered`);
    }
  }
});

test('every registered code is used somewhere under src/', (t) => {
  const text = [...sources().values()].join('\n');
  const unused = codes.filter((code) => !new RegExp(`\\b${code}\\b`).test(text));
  t.deepEqual(unused, []);
});

test('each HTTP error has the status of its code', (t) => {
  const errors: readonly HttpError[] = [
    new BadRequestHttpError('bad'),
    new BadRequestHttpError('bad host', { code: 'LOUPE_ERR_HTTP_INVALID_HOST' }),
    new UnauthorizedHttpError('who?', 'Basic realm="Loupe"'),
    new ForbiddenHttpError(),
    new NotFoundHttpError('nothing here'),
    new MethodNotAllowedHttpError(['GET'], 'no'),
    new PayloadTooLargeHttpError(1024),
    new TooManyRequestsHttpError(60),
  ];
  t.deepEqual(
    errors.map((error) => [error.name, error.code, error.statusCode]),
    [
      ['BadRequestHttpError', 'LOUPE_ERR_HTTP_BAD_REQUEST', 400],
      ['BadRequestHttpError', 'LOUPE_ERR_HTTP_INVALID_HOST', 400],
      ['UnauthorizedHttpError', 'LOUPE_ERR_HTTP_UNAUTHORIZED', 401],
      ['ForbiddenHttpError', 'LOUPE_ERR_HTTP_FORBIDDEN', 403],
      ['NotFoundHttpError', 'LOUPE_ERR_HTTP_NOT_FOUND', 404],
      ['MethodNotAllowedHttpError', 'LOUPE_ERR_HTTP_METHOD_NOT_ALLOWED', 405],
      ['PayloadTooLargeHttpError', 'LOUPE_ERR_HTTP_PAYLOAD_TOO_LARGE', 413],
      ['TooManyRequestsHttpError', 'LOUPE_ERR_SECURITY_TOO_MANY_LOGIN_ATTEMPTS', 429],
    ],
  );
  for (const error of errors) {
    t.true(error instanceof HttpError && error instanceof LoupeError && error instanceof Error);
    t.is(error.statusCode, ERROR_CODES[error.code as ErrorCode].statusCode);
  }
});

test('the 405 lists the allowed methods upper-cased in Allow', (t) => {
  const error = new MethodNotAllowedHttpError(['get', 'Post', 'PUT'], 'Method Not Allowed');
  t.deepEqual(error.headers, { Allow: 'GET, POST, PUT' });
  t.deepEqual(error.allowedMethods, ['GET', 'POST', 'PUT']);
  t.is(error.message, 'Method Not Allowed');
});

test('the 401 carries its WWW-Authenticate challenge', (t) => {
  t.deepEqual(new UnauthorizedHttpError('Bad credentials.', 'Basic realm="Loupe"').headers, { 'WWW-Authenticate': 'Basic realm="Loupe"' });
});

test('the 429 carries Retry-After in whole seconds and says how many minutes to wait', (t) => {
  const error = new TooManyRequestsHttpError(42.2);
  t.deepEqual(error.headers, { 'Retry-After': '43' });
  t.is(error.retryAfterSeconds, 43);
  t.is(error.message, 'Too many failed login attempts, please try again in 1 minute.');
  t.is(new TooManyRequestsHttpError(61).message, 'Too many failed login attempts, please try again in 2 minutes.');
});

test('the 429 never asks to retry in less than a second', (t) => {
  t.deepEqual(new TooManyRequestsHttpError(0).headers, { 'Retry-After': '1' });
  t.deepEqual(new TooManyRequestsHttpError(-5).headers, { 'Retry-After': '1' });
  t.deepEqual(new TooManyRequestsHttpError(Number.NaN).headers, { 'Retry-After': '1' });
});

test('the 413 names the limit; the 403 has a default message', (t) => {
  t.is(new PayloadTooLargeHttpError(1024).message, 'Request body exceeds the limit of 1024 bytes.');
  t.is(new ForbiddenHttpError().message, 'Access Denied.');
  t.is(new ForbiddenHttpError('Admins only.').message, 'Admins only.');
});

test('HTTP error headers are frozen and other errors have none', (t) => {
  const error = new HttpError('LOUPE_ERR_HTTP_INTERNAL', 'x', { headers: { 'Retry-After': '1' } });
  t.true(Object.isFrozen(error.headers));
  t.deepEqual(new NotFoundHttpError('x').headers, {});
});

test('LoupeError keeps its cause, and has none when not given one', (t) => {
  const cause = new Error('connection refused');
  const error = new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', 'Cannot reach Redis.', { cause });
  t.is(error.cause, cause);
  t.is(error.message, 'Cannot reach Redis.');
  t.is(error.code, 'LOUPE_ERR_REDIS_UNAVAILABLE');
  t.is(error.statusCode, 500);
  t.is(error.name, 'LoupeError');
  t.false('cause' in new LoupeError('LOUPE_ERR_CONFIG_INVALID', 'x'));
});

test('HTTP errors pass their cause on', (t) => {
  const cause = new SyntaxError('Unexpected token');
  t.is(new BadRequestHttpError('Invalid JSON.', { cause, code: 'LOUPE_ERR_HTTP_MALFORMED_JSON' }).cause, cause);
  t.is(new UnauthorizedHttpError('x', 'Basic', { cause }).cause, cause);
  t.is(new NotFoundHttpError('x', { cause }).cause, cause);
  t.is(new MethodNotAllowedHttpError(['GET'], 'x', { cause }).cause, cause);
  t.is(new ForbiddenHttpError('x', { cause }).cause, cause);
  t.is(new TooManyRequestsHttpError(60, { cause }).cause, cause);
});
