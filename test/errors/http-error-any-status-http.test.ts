import test from 'ava';
import { httpError, HttpError, LoupeResponse, type RouteDefinition } from '../../src';
import { type ExceptionCollectorData } from '../../src/profiler/collect/collectors/exception-collector';
import { httpRequest } from '../helpers/http-client';
import { profiledRequest, startIoApp, type IoApp } from '../profiler/app-io/io-app';

/*
 * An application answers any 4xx or 5xx with httpError (or `new HttpError(status, …)`), with a
 * code of its own: the response, the problem document, the pages with and without debug and the
 * profile treat it as one of Loupe's own errors.
 */

function route(name: string, error: () => never): RouteDefinition {
  return { name, path: `/${name}`, methods: ['GET'], controller: { name, handle: () => error() } };
}

const ROUTES: readonly RouteDefinition[] = [
  route('conflict', () => {
    throw httpError(409, 'The order is closed.', { code: 'ORDER_CLOSED', headers: { 'X-Order': '42' } });
  }),
  route('gone', () => {
    throw httpError(410);
  }),
  route('teapot', () => {
    throw new HttpError(418, 'Short and stout.', { code: 'TEAPOT', cause: new Error('kettle missing') });
  }),
  route('upstream', () => {
    throw httpError(502, 'Payment provider answered 500 for card 4242.', { code: 'PAYMENT_UPSTREAM' });
  }),
  route('hidden', () => {
    throw httpError(422, 'Internal validation detail.', { expose: false });
  }),
  route('bad-status', () => {
    throw httpError(302, 'Not an error status.');
  }),
  { name: 'ok', path: '/ok', methods: ['GET'], controller: { name: 'ok', handle: () => LoupeResponse.json({ ok: true }) } },
];

let debug: IoApp;
let prod: IoApp;

test.before(async () => {
  debug = await startIoApp(ROUTES);
  prod = await startIoApp(ROUTES, { APP_DEBUG: '0', APP_ENV: 'prod', APP_SECRET: 'a-secret-of-this-test-only-0123456789' });
});

test.after.always(async () => {
  await debug?.close();
  await prod?.close();
});

const json = { accept: 'application/json' };

test('a 409 of the application answers its status, its headers and, without debug, its message and code', async (t) => {
  const res = await httpRequest(prod.port, { path: '/conflict', headers: json });
  t.is(res.status, 409);
  t.is(res.headers['x-order'], '42');
  t.deepEqual(JSON.parse(res.body), { type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: 409, detail: 'The order is closed.', code: 'ORDER_CLOSED' });
  const page = await httpRequest(prod.port, { path: '/conflict', headers: { accept: 'text/html' } });
  t.is(page.status, 409);
  t.true(page.body.includes('The server returned a "409 Conflict".'));
  t.true(page.body.includes('<p class="message">The order is closed. <code>ORDER_CLOSED</code></p>'));
});

test('a status with no message says its status text, and any status from 400 to 599 is allowed', async (t) => {
  const gone = await httpRequest(prod.port, { path: '/gone', headers: json });
  t.is(gone.status, 410);
  t.like(JSON.parse(gone.body), { status: 410, detail: 'Gone' });
  const teapot = await httpRequest(prod.port, { path: '/teapot', headers: json });
  t.is(teapot.status, 418);
  t.like(JSON.parse(teapot.body), { detail: 'Short and stout.', code: 'TEAPOT' });
});

test('a 5xx, or an error with expose false, tells the client its status alone without debug', async (t) => {
  const upstream = await httpRequest(prod.port, { path: '/upstream', headers: json });
  t.is(upstream.status, 502);
  t.deepEqual(JSON.parse(upstream.body), { type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'An error occurred', status: 502, detail: 'Bad Gateway' });
  t.false(upstream.body.includes('4242'));
  const hidden = await httpRequest(prod.port, { path: '/hidden', headers: { accept: 'text/html' } });
  t.is(hidden.status, 422);
  t.false(hidden.body.includes('Internal validation detail.'));
  t.true(hidden.body.includes('"422 Unprocessable Content"'));
});

test('a status that is not an error status is the application\'s bug: a 500 that says why in debug', async (t) => {
  const res = await httpRequest(debug.port, { path: '/bad-status', headers: json });
  t.is(res.status, 500);
  const problem = JSON.parse(res.body) as { detail: string; class: string };
  t.is(problem.class, 'RangeError');
  t.is(problem.detail, "An HttpError's status is an integer from 400 to 599, not 302.");
});

test('in debug the problem document and the profile show the class, message, code and cause of the application\'s error', async (t) => {
  const res = await httpRequest(debug.port, { path: '/teapot', headers: json });
  t.is(res.status, 418);
  t.like(JSON.parse(res.body), { status: 418, detail: 'Short and stout.', code: 'TEAPOT', class: 'HttpError' });
  const { profile, status } = await profiledRequest(debug, { path: '/conflict', headers: { accept: 'text/html' } });
  t.is(status, 409);
  t.is(profile.statusCode, 409);
  const exception = profile.collectors['exception'] as unknown as ExceptionCollectorData;
  const flat = JSON.stringify(exception);
  t.true(flat.includes('ORDER_CLOSED'), 'the code is in the profile');
  t.true(flat.includes('The order is closed.'));
  const log = JSON.stringify(profile.collectors['logs']);
  t.true(log.includes('Uncaught Exception HttpError: \\"The order is closed.\\"'), log.slice(0, 400));
});
