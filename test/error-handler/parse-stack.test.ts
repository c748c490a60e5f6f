import test from 'ava';
import { parseStack } from '../../src/error-handler/parse-stack';

test('parses named, anonymous, anonymous awaited, constructor and eval frames', (t) => {
  const stack = [
    'TypeError: t',
    '    at new K (/app/src/k.ts:3:35)',
    '    at /app/src/run.ts:4:37',
    '    at Object.<anonymous> (file:///app/main.mjs:10:2)',
    '    at eval (eval at <anonymous> (/app/e.js:6:7), <anonymous>:1:6)',
    '    at async Promise.all (index 0)',
    '    at async /app/src/await.ts:5:9',
    '    at node:internal/main/run_main_module:28:49',
  ].join('\n');
  t.deepEqual(parseStack(stack), [
    { function: 'new K', file: '/app/src/k.ts', line: 3, column: 35 },
    { function: '', file: '/app/src/run.ts', line: 4, column: 37 },
    { function: 'Object.<anonymous>', file: 'file:///app/main.mjs', line: 10, column: 2 },
    { function: 'eval', file: 'eval at <anonymous> (/app/e.js:6:7), <anonymous>', line: 1, column: 6 },
    { function: 'async Promise.all (index 0)', file: '', line: 0, column: 0 },
    { function: 'async', file: '/app/src/await.ts', line: 5, column: 9 },
    { function: '', file: 'node:internal/main/run_main_module', line: 28, column: 49 },
  ]);
});

test('a multi-line message that looks like a frame is not taken for one', (t) => {
  const stack = 'Error: first line\n    at fake (/not/a/frame.ts:1:1)\nlast line of the message\n    at real (/app/real.ts:7:3)';
  t.deepEqual(parseStack(stack), [{ function: 'real', file: '/app/real.ts', line: 7, column: 3 }]);
});

test('the limit caps the frames; a stack without frames gives none', (t) => {
  const stack = `Error: x\n${Array.from({ length: 5 }, (_, i) => `    at f${i} (/a.ts:${i}:1)`).join('\n')}`;
  t.deepEqual(parseStack(stack, 2).map((f) => f.function), ['f0', 'f1']);
  t.deepEqual(parseStack('Error: no frames'), []);
  t.deepEqual(parseStack(''), []);
});
