import test from 'ava';
import { parseProfile, unreadableProfileMessage } from '../../src/profiler/profile-schema';
import { sampleProfile } from '../helpers/sample-profile';

const profile = sampleProfile({
  children: ['def456'],
  collectors: { router: { route: 'hello', controller: null, params: {}, failure: null }, cart: { items: 2 } },
});

const errorOf = (json: string): string => {
  const parsed = parseProfile(json);
  return parsed.ok ? '(accepted)' : parsed.error;
};

/** `profile` as JSON with `changes` applied; a change to `undefined` removes the field. */
const withChanges = (changes: Record<string, unknown>): string => JSON.stringify({ ...profile, ...changes });

test('a stored profile reads back as it was, entries of any collector included', (t) => {
  t.deepEqual(parseProfile(JSON.stringify(profile)), { ok: true, profile });
});

test('a profile without collector entries is readable: its panels have no data, it is not malformed', (t) => {
  t.like(parseProfile(withChanges({ collectors: {} })), { ok: true });
});

test('what is not a JSON object is refused', (t) => {
  t.regex(errorOf('{'), /^it is not JSON \(/);
  t.is(errorOf('[1]'), 'it is not a JSON object');
  t.is(errorOf('null'), 'it is not a JSON object');
});

test('a profile without a version, or of another version, is refused with what this Loupe reads', (t) => {
  t.is(errorOf(withChanges({ version: undefined })), 'it has no "version": it was stored by an earlier Loupe; this one reads version 1');
  t.is(errorOf(withChanges({ version: 2 })), 'it is a profile of version 2; this Loupe reads version 1');
  t.is(errorOf(withChanges({ version: '1' })), 'it is a profile of version "1"; this Loupe reads version 1');
});

test('every envelope field is checked, by name', (t) => {
  const wrong: Record<string, unknown> = {
    token: 7,
    parent: 1,
    children: ['abc', 3],
    type: 'other',
    method: null,
    url: undefined,
    ip: [],
    statusCode: '200',
    time: undefined,
    duration: Number.NaN,
    aborted: 'no',
    collectors: [],
    profilerCost: {},
  };
  for (const [field, value] of Object.entries(wrong)) t.regex(errorOf(withChanges({ [field]: value })), new RegExp(`^the field "${field}" is missing or not `), field);
});

test('a collector entry that is not an object is named', (t) => {
  for (const entry of [[1, 2], 'text', null, 3]) {
    t.is(errorOf(withChanges({ collectors: { router: {}, cart: entry } })), 'the entry of the collector "cart" is not an object');
  }
});

test('the unreadable message names the token and the reason', (t) => {
  t.is(unreadableProfileMessage('abc123', 'it is not a JSON object'), 'The profile of token "abc123" cannot be read: it is not a JSON object.');
});

test('the router entry\'s routes tried are read back; a profile stored before them, or with none, is readable', (t) => {
  const routes = [{ name: 'hello', path: '/hello/{name}', level: 1, log: 'Method "POST" does not match any of the required methods (GET)' }];
  const router = { route: null, controller: null, params: {}, failure: 'No route found', path: null, defaults: {}, matching: { method: 'POST', path: '/hello/x', routes, omitted: 0 } };
  t.deepEqual(parseProfile(withChanges({ collectors: { router } })), { ok: true, profile: { ...profile, collectors: { router } } });
  t.like(parseProfile(withChanges({ collectors: { router: { ...router, matching: null } } })), { ok: true });
  // As stored before Loupe recorded the route's pattern, defaults and the routes tried.
  t.like(parseProfile(withChanges({ collectors: { router: { route: null, controller: null, params: {}, failure: 'No route found' } } })), { ok: true });
});

test('malformed routes tried are refused with what they must be', (t) => {
  const expected = 'the "matching" of the collector "router" is not a list of routes tried (method, path, routes of name, path, level 0-2 and log, omitted)';
  const matching = { method: 'GET', path: '/x', routes: [{ name: 'a', path: '/a', level: 0, log: 'Path "/a" does not match' }], omitted: 0 };
  for (const wrong of [[], 'x', { ...matching, routes: 'a' }, { ...matching, omitted: undefined }, { ...matching, routes: [{ name: 'a', path: '/a', level: 3, log: '' }] }, { ...matching, routes: [null] }]) {
    t.is(errorOf(withChanges({ collectors: { router: { route: null, matching: wrong } } })), expected, JSON.stringify(wrong));
  }
  // Another collector may use the same field name as it likes.
  t.like(parseProfile(withChanges({ collectors: { cart: { matching: 'x' } } })), { ok: true });
});
