import test from 'ava';
import { findJsonProblem } from '../../src/http/find-json-problem';

const check = (text: string, maxDepth = 128): ReturnType<typeof findJsonProblem> => findJsonProblem(Buffer.from(text), maxDepth);

test('every kind of valid JSON text passes, as JSON.parse reads it', (t) => {
  const valid = [
    '0', '-0', '12', '-1.5e+3', '2E-7', '0.25', 'true', 'false', 'null', '""', '"a\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D"',
    '"héllo €"', '[]', '{}', ' [ 1 , [ 2 , { "a" : [ ] } ] ] ', '{"a":{"b":{"c":null}},"d":[true,false]}', '\t\r\n"x"\n',
  ];
  for (const text of valid) {
    t.is(check(text), null, text);
    t.notThrows(() => JSON.parse(text), text);
  }
});

test('malformed JSON is found at the byte where it goes wrong, as JSON.parse refuses it', (t) => {
  const cases: [string, number][] = [
    ['', 0], ['   ', 3], ['{"a":', 5], ['[1,]', 3], ['{"a":1,}', 7], ['{"a" 1}', 5], ['{a:1}', 1], ['[1 2]', 3],
    ['"abc', 4], ['"a\nb"', 2], ['"\\x"', 2], ['"\\u12g4"', 5], ['01', 1], ['-', 1], ['1.', 2], ['1e', 2], ['.5', 0],
    ['tru', 3], ['nul1', 3], ['[1]]', 3], ['{"password":hunter2SEC"}', 12], ['\u00ff', 0], ['NaN', 0], ["'a'", 0],
  ];
  for (const [text, offset] of cases) {
    t.deepEqual(check(text), { kind: 'malformed', offset }, JSON.stringify(text));
    t.throws(() => JSON.parse(text), undefined, JSON.stringify(text));
  }
});

test('nesting deeper than the limit is refused at the first bracket too many, arrays and objects alike', (t) => {
  t.is(check('[[[1]]]', 3), null);
  t.deepEqual(check('[[[[1]]]]', 3), { kind: 'too_deep', offset: 3 });
  t.deepEqual(check('{"a":{"b":{"c":{}}}}', 3), { kind: 'too_deep', offset: 15 });
  t.deepEqual(check('[{"a":[{}]}]', 3), { kind: 'too_deep', offset: 7 });
  // Brackets inside strings do not nest.
  t.is(check('["[[[[[[", "{{{{{{"]', 2), null);
});

test('10,000 levels are refused without recursion; a large flat document passes', (t) => {
  const depth = 10_000;
  t.deepEqual(check('['.repeat(depth) + ']'.repeat(depth)), { kind: 'too_deep', offset: 128 });
  t.deepEqual(check('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)), { kind: 'too_deep', offset: 128 * 5 });
  // Deeper than any stack: a recursive checker would overflow before reaching the end.
  t.deepEqual(check('['.repeat(1_000_000), 2_000_000), { kind: 'malformed', offset: 1_000_000 });
  t.is(check(JSON.stringify({ items: Array.from({ length: 100_000 }, (_, index) => ({ index, name: `item ${index}` })) })), null);
});
