/** True for a promise or any object with a `then` method: what a listener, controller or provider may return to be awaited. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
