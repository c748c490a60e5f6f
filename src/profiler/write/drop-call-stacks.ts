import { type CollectorEntry, type Profile } from '../profile';

/** A profile without the stacks of its captured calls, and how many calls lost theirs. */
export interface WithoutCallStacks {
  readonly profile: Profile;
  readonly stacks: number;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An entry's lists with each call's `stack` left out (a call is an object with an `origin` and a `stack`). */
function dropFromEntry(entry: CollectorEntry, counter: { stacks: number }): CollectorEntry {
  const before = counter.stacks;
  const out: Record<string, unknown> = { ...entry };
  for (const [key, value] of Object.entries(entry)) {
    if (!Array.isArray(value)) continue;
    const items = value.map((item: unknown) => {
      if (!isRecord(item) || !('origin' in item) || !('stack' in item)) return item;
      counter.stacks += 1;
      const { stack: _dropped, ...rest } = item;
      return rest;
    });
    out[key] = items;
  }
  return counter.stacks === before ? entry : out;
}

/**
 * `profile` with the call stacks of its SQL, HTTP and Redis calls left out: the first thing cut
 * when a profile is over its byte budget, since each call keeps its origin (the line to fix)
 * and a stack is up to CALL_STACK_FRAMES frames of every call of a request that made thousands.
 */
export function dropCallStacks(profile: Profile): WithoutCallStacks {
  const counter = { stacks: 0 };
  const collectors: Record<string, CollectorEntry> = {};
  for (const [name, entry] of Object.entries(profile.collectors)) collectors[name] = dropFromEntry(entry, counter);
  return counter.stacks === 0 ? { profile, stacks: 0 } : { profile: { ...profile, collectors }, stacks: counter.stacks };
}
