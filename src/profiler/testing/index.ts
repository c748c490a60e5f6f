/**
 * `loupe-kernel/testing`: query and call budgets asserted from a test, on the profile the debug
 * server stored for a response. Depends on no test runner: a failure is node:assert's AssertionError.
 */
export { expectProfile } from './expect-profile';
export { readTestProfile, type ReadProfileOptions, type ProfileReader } from './read-test-profile';
export { type DebugTokenSource } from './debug-token-of';
export { checkBudget, type ProfileBudget, type BudgetViolation, type ViolationKind } from '../budget/check-budget';
export { type ReadResult } from '../storage/profile-storage';
export { type Profile, type CollectorEntry, type ProfileCut } from '../profile';
export { type ProfileVersion } from '../profiler-config';
