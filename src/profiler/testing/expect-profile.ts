import { AssertionError } from 'node:assert';
import { checkBudget, type ProfileBudget } from '../budget/check-budget';
import { type Profile } from '../profile';
import { budgetFailureMessage } from './budget-failure-message';
import { type DebugTokenSource } from './debug-token-of';
import { readTestProfile, type ReadProfileOptions } from './read-test-profile';

const LIMITS = ['maxQueries', 'maxDurationMs'] as const;

/** A limit that is no count is the test's mistake, said at once rather than read as "no limit". */
function checkLimits(budget: ProfileBudget): void {
  for (const name of LIMITS) {
    const value = budget[name];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw new TypeError(`expectProfile: ${name} must be a number of 0 or more, got ${String(value)}.`);
  }
}

/**
 * Waits for the profile of a response (its X-Debug-Token, the response itself, or an `inject`
 * result) and asserts that it is within `budget`: `{ maxQueries: 3, nPlusOne: false,
 * duplicates: false, failedCalls: false }`. Throws an AssertionError (node:assert) listing each
 * excess with its `file:line`, then the request's queries with their origins, so it fails a test
 * of any runner (node:test, ava, vitest, Jest, Mocha); answers the profile when within.
 */
export async function expectProfile(source: DebugTokenSource, budget: ProfileBudget, options: ReadProfileOptions = {}): Promise<Profile> {
  checkLimits(budget);
  const profile = await readTestProfile(source, options);
  const violations = checkBudget(profile, budget);
  if (violations.length > 0) {
    throw new AssertionError({ message: budgetFailureMessage(profile, budget, violations), operator: 'expectProfile' });
  }
  return profile;
}
