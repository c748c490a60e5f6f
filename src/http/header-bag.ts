/**
 * Response headers keyed case-insensitively, keeping the spelling they were set with.
 * uWS writes headers into a linear buffer with no way to remove one, so the kernel
 * keeps them here until the response is written once.
 */
export class HeaderBag {
  readonly #entries = new Map<string, { name: string; values: string[] }>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [name, value] of Object.entries(initial)) this.set(name, value);
  }

  /** Sets `name` to one value, replacing every value it had; returns the bag for chaining. */
  set(name: string, value: string): this {
    this.#entries.set(name.toLowerCase(), { name, values: [value] });
    return this;
  }

  /** Adds a value to `name` (a `Set-Cookie` line, say), or sets it when absent; returns the bag. */
  append(name: string, value: string): this {
    const entry = this.#entries.get(name.toLowerCase());
    if (entry === undefined) return this.set(name, value);
    entry.values.push(value);
    return this;
  }

  /** The first value of `name`, or `undefined` when it is not set. */
  get(name: string): string | undefined {
    return this.#entries.get(name.toLowerCase())?.values[0];
  }

  /** Every value of `name` in the order set; empty when it is not set. */
  getAll(name: string): readonly string[] {
    return this.#entries.get(name.toLowerCase())?.values ?? [];
  }

  /** Whether `name` has at least one value. */
  has(name: string): boolean {
    return this.#entries.has(name.toLowerCase());
  }

  /** Removes `name` and all its values; nothing when it is not set. */
  delete(name: string): void {
    this.#entries.delete(name.toLowerCase());
  }

  /**
   * Calls `write` with every header line in insertion order, once per value, with the name as
   * set and lower-cased: what the uWS adapter writes, without a pair made per line.
   */
  forEachLine(write: (name: string, value: string, lowerCaseName: string) => void): void {
    this.#entries.forEach(({ name, values }, lowerCaseName) => {
      for (const value of values) write(name, value, lowerCaseName);
    });
  }

  /** Every header line in insertion order, one pair per value. */
  *lines(): IterableIterator<[string, string]> {
    for (const { name, values } of this.#entries.values()) {
      for (const value of values) yield [name, value];
    }
  }

  /** A plain copy, multi-valued headers joined as separate array items. */
  toJSON(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const { name, values } of this.#entries.values()) out[name] = values.length === 1 ? (values[0] ?? '') : [...values];
    return out;
  }
}
