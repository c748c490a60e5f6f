import { N_PLUS_ONE, originText, type StoredCall } from './analyze-calls';

/** Calls flagged by analyzeRepeats, as indexes into the list. */
export interface RepeatedCalls {
  /** Calls of a shape made N_PLUS_ONE times or more from one place. */
  readonly nPlusOne: ReadonlySet<number>;
  /** Calls that repeat an earlier one exactly. */
  readonly duplicates: ReadonlySet<number>;
}

/**
 * analyzeQueries' N+1 and duplicate rules for calls that are not SQL: `shapeOf` is what a loop
 * repeats (an endpoint: see httpCallShape; a command's name), `exactOf` what makes two calls the same
 * (the whole request, the command with its arguments). Pure, as analyzeQueries.
 */
export function analyzeRepeats<TCall extends StoredCall>(calls: readonly TCall[], shapeOf: (call: TCall) => string, exactOf: (call: TCall) => string): RepeatedCalls {
  const perPlace = new Map<string, number[]>();
  const seen = new Set<string>();
  const duplicates = new Set<number>();
  calls.forEach((call, index) => {
    // A call whose place is unknown (no origin, or its request's only) is in no loop: calls from different places would be counted as one.
    const origin = originText(call.origin);
    if (origin !== '') {
      const place = `${shapeOf(call)}\u0000${origin}`;
      const members = perPlace.get(place) ?? [];
      members.push(index);
      perPlace.set(place, members);
    }
    const exact = exactOf(call);
    if (seen.has(exact)) duplicates.add(index);
    else seen.add(exact);
  });
  const nPlusOne = new Set([...perPlace.values()].filter((members) => members.length >= N_PLUS_ONE).flat());
  return { nPlusOne, duplicates };
}
