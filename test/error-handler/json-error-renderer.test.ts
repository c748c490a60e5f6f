import test from 'ava';
import { flattenError } from '../../src/error-handler/flatten-error';
import { NotFoundHttpError } from '../../src/errors/http-error';
import { renderJsonError } from '../../src/error-handler/json-error-renderer';

const flat = flattenError(new NotFoundHttpError('No route found for "GET /x"', { cause: new RangeError('inner') }));

test('non-debug: the RFC 7807 members only, detail is the status text', (t) => {
  t.deepEqual(renderJsonError(flat, { debug: false }), {
    type: 'https://tools.ietf.org/html/rfc2616#section-10',
    title: 'An error occurred',
    status: 404,
    detail: 'Not Found',
  });
  t.deepEqual(renderJsonError(flattenError(new Error('secret')), { debug: false }), {
    type: 'https://tools.ietf.org/html/rfc2616#section-10',
    title: 'An error occurred',
    status: 500,
    detail: 'Internal Server Error',
  });
});

test('debug: detail is the message, plus code, class, trace and previous', (t) => {
  const problem = renderJsonError(flat, { debug: true });
  t.deepEqual(Object.keys(problem), ['type', 'title', 'status', 'detail', 'code', 'class', 'trace', 'previous']);
  t.is(problem.detail, 'No route found for "GET /x"');
  t.is(problem.code, 'LOUPE_ERR_HTTP_NOT_FOUND');
  t.is(problem.class, 'NotFoundHttpError');
  t.deepEqual(problem.trace, flat.trace);
  t.true((problem.trace?.length ?? 0) > 0);
  t.deepEqual(problem.previous?.map((p) => [p.class, p.message]), [['RangeError', 'inner']]);
  t.deepEqual(Object.keys(problem.previous?.[0] ?? {}), ['class', 'message', 'trace']);
});

test('the document survives a JSON round trip unchanged', (t) => {
  const problem = renderJsonError(flat, { debug: true });
  t.deepEqual(JSON.parse(JSON.stringify(problem)), problem);
});
