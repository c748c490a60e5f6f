/**
 * A typed key of per-request state that listeners and controllers share. The type parameter is
 * carried by the key, so `attributes.get(KEY)` needs no cast and no `typeof` check.
 */
export interface AttributeKey<T> {
  /** What the profiler and debug output show for the value; two keys of the same name are still two keys. */
  readonly name: string;
  /** Never set: it only carries `T` for the compiler. */
  readonly type?: T;
}

/** A key for per-request state of type `T`; `name` is what the profiler and debug output show. */
export function attributeKey<T>(name: string): AttributeKey<T> {
  return Object.freeze({ name });
}

/** Per-request state shared by listeners and controllers, keyed by typed keys (as Hono's `c.set/c.get`). */
export class Attributes {
  readonly #values = new Map<AttributeKey<unknown>, unknown>();

  /** The value set under `key`, or `undefined` when none was. */
  get<T>(key: AttributeKey<T>): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  /** Sets the value under `key`, replacing any earlier one. */
  set<T>(key: AttributeKey<T>, value: T): void {
    this.#values.set(key, value);
  }

  /** Whether a value was set under `key` (even `undefined`). */
  has(key: AttributeKey<unknown>): boolean {
    return this.#values.has(key);
  }

  /** Removes the value under `key`; nothing when there is none. */
  delete(key: AttributeKey<unknown>): void {
    this.#values.delete(key);
  }
}
