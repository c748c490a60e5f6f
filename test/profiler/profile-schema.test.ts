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
  t.is(errorOf(withChanges({ version: undefined })), 'it has no "version": it was stored by an earlier Loupe; this Loupe reads versions 1 and 2');
  t.is(errorOf(withChanges({ version: 3 })), 'it is a profile of version 3; this Loupe reads versions 1 and 2');
  t.is(errorOf(withChanges({ version: '1' })), 'it is a profile of version "1"; this Loupe reads versions 1 and 2');
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
  const expected = 'the "matching" of the collector "router" is not a list of routes tried (method, path, routes of name, path, level 0-2 and log, omitted, untraced router names)';
  const matching = { method: 'GET', path: '/x', routes: [{ name: 'a', path: '/a', level: 0, log: 'Path "/a" does not match' }], omitted: 0 };
  for (const wrong of [[], 'x', { ...matching, routes: 'a' }, { ...matching, omitted: undefined }, { ...matching, routes: [{ name: 'a', path: '/a', level: 3, log: '' }] }, { ...matching, routes: [null] }, { ...matching, untraced: 'PageRouter' }, { ...matching, untraced: [1] }]) {
    t.is(errorOf(withChanges({ collectors: { router: { route: null, matching: wrong } } })), expected, JSON.stringify(wrong));
  }
  // Another collector may use the same field name as it likes.
  t.like(parseProfile(withChanges({ collectors: { cart: { matching: 'x' } } })), { ok: true });
});

/** A version 2 timeline: a state with a listener, a running state, and the error sub-request's span and state under another. */
const storedTimeline = {
  totalUs: 5250,
  spans: {
    name: ['kernel.request', 'RouterListener', 'error_sub_request', 'sub-request GET /boom', 'kernel.request', 'kernel.terminate'],
    category: ['phase', 'listener', 'phase', 'sub_request', 'phase', 'phase'],
    startUs: [0, 125, 1000, 1001, 1002, 4000],
    durationUs: [1000, 750, 3000, 2500, 1, 1250],
    parent: [-1, 0, -1, 2, 3, -1],
    priority: [0, 32, 0, 0, 0, 0],
  },
  running: [5],
  droppedSpans: 1,
  subRequest: 3,
  subRequestToken: 'def456',
};

/** The same timeline as version 1 stored it, and as every reader takes it. */
const readTimeline = {
  total: 5.25,
  spans: [
    { name: 'kernel.request', category: 'phase', start: 0, duration: 1, parent: -1, depth: 0 },
    { name: 'RouterListener', category: 'listener', start: 0.125, duration: 0.75, parent: 0, depth: 1, priority: 32 },
    { name: 'error_sub_request', category: 'phase', start: 1, duration: 3, parent: -1, depth: 0 },
    { name: 'sub-request GET /boom', category: 'sub_request', start: 1.001, duration: 2.5, parent: 2, depth: 1, token: 'def456' },
    { name: 'kernel.request', category: 'phase', start: 1.002, duration: 0.001, parent: 3, depth: 2 },
    { name: 'kernel.terminate', category: 'phase', start: 4, duration: 1.25, parent: -1, depth: 0, running: true },
  ],
  droppedSpans: 1,
  subRequest: 3,
};

test('a version 2 timeline, stored as columns of integer microseconds, is read as version 1 stored it, key order included', (t) => {
  const parsed = parseProfile(withChanges({ version: 2, collectors: { timeline: storedTimeline } }));
  if (!parsed.ok) return t.fail(parsed.error);
  t.deepEqual(parsed.profile.collectors['timeline'], readTimeline);
  t.is(JSON.stringify(parsed.profile.collectors['timeline']), JSON.stringify(readTimeline));
  t.is(parsed.profile.version, 1, 'what is read back is in version 1\'s form, and says so');
  t.like(parseProfile(JSON.stringify(parsed.profile)), { ok: true }, 'so that what the JSON API answers reads back');
  const { subRequest, subRequestToken, ...alone } = storedTimeline;
  const without = parseProfile(withChanges({ version: 2, collectors: { timeline: { ...alone, running: [] } } }));
  const { subRequest: index, ...rest } = readTimeline;
  t.deepEqual(without.ok ? without.profile.collectors['timeline'] : null, { ...rest, spans: readTimeline.spans.map(({ token, running, ...span }) => span) });
});

test('a version 1 profile is read as it was stored, its timeline of span objects included', (t) => {
  const stored = { ...profile, version: 1, collectors: { timeline: readTimeline } };
  t.deepEqual(parseProfile(JSON.stringify(stored)), { ok: true, profile: stored });
});

test('a malformed version 2 timeline is refused with what it must be', (t) => {
  const expected =
    'the entry of the collector "timeline" is not a timeline (totalUs, droppedSpans, running and spans of name, category, startUs, durationUs, parent and priority columns of one length)';
  const { spans } = storedTimeline;
  for (const wrong of [
    readTimeline,
    { ...storedTimeline, totalUs: '5' },
    { ...storedTimeline, droppedSpans: undefined },
    { ...storedTimeline, spans: [] },
    { ...storedTimeline, spans: { ...spans, startUs: spans.startUs.slice(1) } },
    { ...storedTimeline, spans: { ...spans, priority: undefined } },
    { ...storedTimeline, spans: { ...spans, name: [...spans.name.slice(1), 7] } },
    { ...storedTimeline, spans: { ...spans, parent: [-2, 0, -1, 2, 3, -1] } },
    { ...storedTimeline, running: [6] },
    { ...storedTimeline, running: undefined },
    { ...storedTimeline, subRequest: 'x' },
    { ...storedTimeline, subRequestToken: 5 },
  ]) {
    t.is(errorOf(withChanges({ version: 2, collectors: { timeline: wrong } })), expected, JSON.stringify(wrong));
  }
});
