/** Announces stored profiles to live lists; never throws, never waits. */
export interface LivePublisher {
  /** `rows`: the search rows of the profiles just stored, each the JSON stored in the index. */
  publish(rows: readonly string[]): void;
}
