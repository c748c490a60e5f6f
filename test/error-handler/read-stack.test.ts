import { readFileSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { parseStack, type StackFrame } from '../../src/error-handler/parse-stack';
import { NODE_FORMAT, stackTrace } from '../../src/error-handler/read-stack';

type Format = (error: Error, sites: NodeJS.CallSite[]) => unknown;

/**
 * Runs `run` with the installed formatter (ts-node's here) under Node's own formatter's name, the
 * only one whose stacks are cached, counting its calls.
 */
function withNodeFormat(run: (calls: () => number) => void): void {
  const installed = Error.prepareStackTrace as Format;
  let calls = 0;
  const format = { [NODE_FORMAT]: (error: Error, sites: NodeJS.CallSite[]) => (calls++, installed(error, sites)) }[NODE_FORMAT];
  Error.prepareStackTrace = format;
  try {
    run(() => calls);
  } finally {
    Error.prepareStackTrace = installed;
  }
}

function parse(stack: string): StackFrame[] {
  return parseStack(stack);
}

function makeError(message: string): Error {
  return new RangeError(message);
}

function fromFirstCaller(message: string): Error {
  return makeError(message);
}

function fromSecondCaller(message: string): Error {
  return makeError(message);
}

/** The frame lines of a stack, without its header. */
function frameLines(stack: unknown): string {
  return String(stack).slice(String(stack).indexOf('\n    at '));
}

test('an error gets the same stack text and frames as reading error.stack would give, formatted once', (t) => {
  withNodeFormat((calls) => {
    // Made on one line: the same frames all the way down.
    const [plain, ...errors] = ['plain', 'cached 0', 'cached 1', 'cached 2'].map((message) => fromFirstCaller(message));
    const plainStack = String(plain?.stack);
    const before = calls();
    for (const [i, error] of errors.entries()) {
      const frames = stackTrace(error, parse);
      t.true(String(error.stack).startsWith(`RangeError: cached ${i}\n    at `));
      t.is(frameLines(error.stack), frameLines(plainStack));
      t.deepEqual(frames, parse(String(error.stack)));
    }
    t.is(calls() - before, 1);
  });
});

test('a formatter of the application\'s own is asked for every stack', (t) => {
  const installed = Error.prepareStackTrace;
  let calls = 0;
  Error.prepareStackTrace = (error, sites) => `${++calls} ${String(error)} ${sites.length}`;
  try {
    const errors = ['a', 'b'].map((message) => fromFirstCaller(message));
    t.deepEqual(
      errors.map((error) => stackTrace(error, parse)),
      [[], []],
    );
    t.is(calls, 2);
    t.true(String(errors[1]?.stack).startsWith('2 RangeError: b'));
  } finally {
    Error.prepareStackTrace = installed;
  }
});

test('two errors created at the same place from different callers keep their own frames', (t) => {
  withNodeFormat(() => sameSiteOtherCallers(t));
});

function sameSiteOtherCallers(t: ExecutionContext): void {
  const first = fromFirstCaller('same site');
  const [second, again] = ['same site', 'same site, again'].map((message) => fromSecondCaller(message));
  const firstFrames = stackTrace(first, parse);
  const secondFrames = stackTrace(second ?? first, parse);
  t.is(firstFrames[0]?.line, secondFrames[0]?.line);
  t.is(firstFrames[1]?.function, 'fromFirstCaller');
  t.is(secondFrames[1]?.function, 'fromSecondCaller');
  t.deepEqual(firstFrames, parse(String(first.stack)));
  t.deepEqual(secondFrames, parse(String(second?.stack)));
  // The same frames again, now from the cache.
  t.deepEqual(stackTrace(again ?? first, parse), secondFrames);
  t.is(frameLines(again?.stack), frameLines(second?.stack));
}

test('Node\'s own errors, whose header Node writes its own way, are formatted every time', (t) => {
  withNodeFormat((calls) => {
    const before = calls();
    const errors = [1, 2].map(() => {
      try {
        return Buffer.alloc(-1);
      } catch (error) {
        return error as Error;
      }
    });
    for (const error of errors) t.true(stackTrace(error as Error, parse).length > 0);
    t.is(calls() - before, 2);
  });
});

/** What a request can put at the end of an error's message: lines that read as frames of files it must never see. */
const FORGED = 'Bad input: \n    at x (/etc/passwd:1:1)\n    at y (file:///proc/self/environ:2:1)';

/** Whether any frame names a file the forged message named. */
const forged = (frames: readonly StackFrame[]): boolean => frames.some((frame) => frame.file === '/etc/passwd' || frame.file.includes('/proc/self/environ'));

test('a message that ends with lines that read as frames gives none of them, cached or not', (t) => {
  withNodeFormat(() => {
    // The first error of a place is formatted, the second comes from the cache.
    for (const error of [fromSecondCaller(FORGED), fromSecondCaller(FORGED)]) {
      const frames = stackTrace(error, parse);
      t.false(forged(frames), JSON.stringify(frames[0]));
      t.regex(frames[0]?.function ?? '', /makeError/);
      t.true(String(error.stack).startsWith(`RangeError: ${FORGED}\n    at `), 'the stack text itself is unchanged');
    }
  });
});

test('a forged message gives no frame with another formatter, a stack read before, or one of Node\'s own errors', (t) => {
  // ts-node's formatter is installed here: not Node's, so the text is all there is.
  const other = fromFirstCaller(FORGED);
  t.false(forged(stackTrace(other, parse)));
  t.regex(stackTrace(other, parse)[0]?.function ?? '', /makeError/);
  withNodeFormat(() => {
    const readBefore = fromFirstCaller(FORGED);
    t.true(String(readBefore.stack).includes('/etc/passwd'));
    t.false(forged(stackTrace(readBefore, parse)));
    // fs's errors repeat the path they were given in their message.
    const nodeError = ((): Error => {
      try {
        readFileSync(FORGED);
      } catch (error) {
        return error as Error;
      }
      throw new Error('reading a file named like that should fail');
    })();
    t.true(nodeError.message.includes('/etc/passwd'));
    t.false(forged(stackTrace(nodeError, parse)));
  });
});

test('a stack read before, a stack set by hand and a throwing getter are handled as they are', (t) => {
  const read = fromFirstCaller('read before');
  const text = String(read.stack);
  t.deepEqual(stackTrace(read, parse), parse(text));
  const set = Object.assign(fromFirstCaller('set'), { stack: 'Error: set\n    at here (/a.js:2:3)' });
  t.deepEqual(stackTrace(set, parse), [{ function: 'here', file: '/a.js', line: 2, column: 3 }]);
  const hostile = Object.defineProperty(new Error('getter'), 'stack', {
    get() {
      throw new Error('no stack for you');
    },
  });
  t.throws(() => stackTrace(hostile, parse), { message: 'no stack for you' });
});

test('the installed stack formatter is left as it was', (t) => {
  const before = Error.prepareStackTrace;
  stackTrace(fromFirstCaller('formatter'), parse);
  t.is(Error.prepareStackTrace, before);
});
