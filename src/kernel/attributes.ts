/**
 * A typed key of per-request state that listeners and controllers share. The type parameter is
 * carried by the key, so `attributes.get(KEY)` needs no cast and no `typeof` check.
 */
export interface AttributeKey<T> {
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

  get<T>(key: AttributeKey<T>): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  set<T>(key: AttributeKey<T>, value: T): void {
    this.#values.set(key, value);
  }

  has(key: AttributeKey<unknown>): boolean {
    return this.#values.has(key);
  }

  delete(key: AttributeKey<unknown>): void {
    this.#values.delete(key);
  }
}
