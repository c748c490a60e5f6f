import { LoupeError } from '../errors/loupe-error';
import { isThenable } from './is-thenable';
import { OPEN_SPAN, type SpanCategory, type SpanRecorder, type Stopwatch } from './stopwatch';

/** What a recorder answers for a span it did not record. */
const NOT_RECORDED = -1;

function remove(stack: number[], index: number): void {
  const at = stack.lastIndexOf(index);
  if (at !== -1) stack.splice(at, 1);
}

/** The stopwatch a span() function gets: its spans nest in that span, also after an await. */
class NestedStopwatch implements Stopwatch {
  readonly #trace: SpanRecorder;
  readonly #parent: number;
  readonly #stack: number[] = [];

  constructor(trace: SpanRecorder, parent: number) {
    this.#trace = trace;
    this.#parent = parent;
  }

  start(name: string, category: SpanCategory = 'app'): void {
    startOn(this.#trace, this.#stack, this.#stack.at(-1) ?? this.#parent, name, category);
  }

  stop(name: string): void {
    stopOn(this.#trace, this.#stack, name);
  }

  span<T>(name: string, fn: (stopwatch: Stopwatch) => T, category: SpanCategory = 'app'): T {
    return spanOn(this.#trace, this.#stack, this.#stack.at(-1) ?? this.#parent, name, category, fn, this);
  }
}

export function startOn(trace: SpanRecorder, stack: number[], parent: number, name: string, category: SpanCategory): void {
  const index = trace.open(name, category, parent);
  if (index !== NOT_RECORDED) stack.push(index);
}

export function stopOn(trace: SpanRecorder, stack: number[], name: string): void {
  if (!trace.detailed) return;
  const { spans } = trace;
  let index = spans.length - 1;
  while (index >= 0 && !(spans[index]?.name === name && spans[index]?.duration === OPEN_SPAN && spans[index]?.depth !== 0)) index--;
  if (index < 0) {
    // Dropped past MAX_SPANS is no mistake of the caller's; a name never started is (Symfony's "Event is not started").
    if (trace.droppedSpans > 0) return;
    throw new LoupeError('LOUPE_ERR_STOPWATCH_NOT_STARTED', `The stopwatch span "${name}" is not started: call start("${name}") first.`);
  }
  remove(stack, index);
  trace.end(index);
}

export function spanOn<T>(trace: SpanRecorder, stack: number[], parent: number, name: string, category: SpanCategory, fn: (stopwatch: Stopwatch) => T, self: Stopwatch): T {
  const index = trace.open(name, category, parent);
  if (index === NOT_RECORDED) return fn(self);
  stack.push(index);
  let result: T;
  try {
    result = fn(new NestedStopwatch(trace, index));
  } catch (error) {
    trace.end(index);
    throw error;
  } finally {
    remove(stack, index);
  }
  if (!isThenable(result)) {
    trace.end(index);
    return result;
  }
  const end = (): void => trace.end(index);
  result.then(end, end);
  return result;
}
