import test from 'ava';
import { encodeWithinBudget, serializeWithinBudget } from '../../../src/profiler/write/profile-budget';
import { MIN_PROFILE_BYTES } from '../../../src/profiler/profiler-config';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { sampleProfile } from '../../helpers/sample-profile';

const bytes = (json: string): number => Buffer.byteLength(json, 'utf8');

test('a profile within the budget is stored whole, as its JSON', (t) => {
  const profile = sampleProfile({ collectors: { request: { headers: { host: '127.0.0.1' } } } });
  t.is(serializeWithinBudget(profile, 65_536), JSON.stringify(profile));
});

test('long strings are cut with a marker saying how much, and the profile still parses', (t) => {
  const long = 'a'.repeat(121_034 + 16_384);
  const json = serializeWithinBudget(sampleProfile({ url: `http://127.0.0.1:8000/?q=${long}`, collectors: { request: { query: { q: long } } } }), 65_536);
  t.true(bytes(json) <= 65_536, `${bytes(json)} bytes`);
  const parsed = parseProfile(json);
  if (!parsed.ok) return t.fail(parsed.error);
  const { query } = parsed.profile.collectors['request'] as { query: { q: string } };
  const [, kept, cut] = /^(a+)… \(cut: ([\d,]+) more bytes\)$/.exec(query.q) ?? [];
  t.is(Number(cut?.replaceAll(',', '')) + (kept?.length ?? 0), long.length, 'the marker says how many bytes were cut');
  t.true((kept?.length ?? 0) > 16_000, 'the longest strings are cut to 16 KiB first');
  t.like(parsed.profile.cut, { strings: 2, collectors: [] });
  t.true((parsed.profile.cut?.originalBytes ?? 0) > 270_000);
});

test('the budget counts escaped bytes: control characters take six each', (t) => {
  const control = '\u0001'.repeat(40_000);
  const json = serializeWithinBudget(sampleProfile({ collectors: { request: { body: control }, exception: { message: control } } }), 16_384);
  t.true(bytes(json) <= 16_384, `${bytes(json)} bytes`);
  t.true(parseProfile(json).ok);
});

test('long keys are cut too, and two keys alike up to the cut stay apart', (t) => {
  const prefix = 'k'.repeat(70_000);
  const json = serializeWithinBudget(sampleProfile({ collectors: { request: { query: { [`${prefix}1`]: 'one', [`${prefix}2`]: 'two' } } } }), 65_536);
  t.true(bytes(json) <= 65_536);
  const parsed = parseProfile(json);
  if (!parsed.ok) return t.fail(parsed.error);
  t.deepEqual(Object.values((parsed.profile.collectors['request'] as { query: Record<string, string> }).query), ['one', 'two']);
});

test('many small values that no cutting shrinks enough: the largest collector entries are left out, and the panel is told', (t) => {
  const many = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`field-${i}`, `value-${i}-${'x'.repeat(40)}`]));
  const json = serializeWithinBudget(sampleProfile({ collectors: { events: { many }, router: { route: 'hello' } } }), MIN_PROFILE_BYTES);
  t.true(bytes(json) <= MIN_PROFILE_BYTES, `${bytes(json)} bytes`);
  const parsed = parseProfile(json);
  if (!parsed.ok) return t.fail(parsed.error);
  t.deepEqual(parsed.profile.cut?.collectors, ['events']);
  t.deepEqual(parsed.profile.collectors['router'], { route: 'hello' });
});

test('a string is never cut inside a surrogate pair', (t) => {
  const json = serializeWithinBudget(sampleProfile({ collectors: { request: { body: '😀'.repeat(40_000) } } }), 16_384);
  t.false(/\\ud83d(?!\\ude00)/i.test(json), 'no lone high surrogate');
  t.true(parseProfile(json).ok);
});

test('what the writer stores is the same JSON: a small profile as text, a larger one as UTF-8 bytes; whole or cut, within the budget counted in bytes', (t) => {
  const small = sampleProfile({ collectors: { request: { headers: { host: '127.0.0.1', note: 'é😀…' } } } });
  t.is(encodeWithinBudget(small, 65_536), JSON.stringify(small));
  const larger = sampleProfile({ collectors: { request: { body: 'é'.repeat(5_000) } } });
  t.deepEqual(encodeWithinBudget(larger, 65_536), Buffer.from(JSON.stringify(larger), 'utf8'));
  // Three bytes a character: within the budget in characters, not in bytes.
  const wide = sampleProfile({ collectors: { request: { body: '€'.repeat(10_000) } } });
  const encoded = encodeWithinBudget(wide, 16_384);
  if (typeof encoded === 'string') return t.fail('a profile of 30 KB is stored as bytes');
  t.true(encoded.length <= 16_384, `${encoded.length} bytes`);
  t.is(encoded.toString('utf8'), serializeWithinBudget(wide, 16_384));
  const parsed = parseProfile(encoded.toString('utf8'));
  if (!parsed.ok) return t.fail(parsed.error);
  t.is(parsed.profile.cut?.strings, 1);
  // A small text past a small budget in bytes (1,400 characters of three bytes each, 4,096 bytes at most) is cut as well.
  const text = encodeWithinBudget(sampleProfile({ collectors: { request: { body: '€'.repeat(1_400) } } }), 4_096);
  t.is(typeof text, 'string');
  t.true(Buffer.byteLength(text) <= 4_096, `${Buffer.byteLength(text)} bytes`);
});
