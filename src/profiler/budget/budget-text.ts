import { type ProfileBudget } from './check-budget';

/** `at most 3 queries, no N+1`: a budget in words, for the messages of the check and the test helper. */
export function budgetText(budget: ProfileBudget): string {
  const parts = [
    ...(budget.maxQueries === undefined ? [] : [`at most ${budget.maxQueries} ${budget.maxQueries === 1 ? 'query' : 'queries'}`]),
    ...(budget.nPlusOne === false ? ['no N+1'] : []),
    ...(budget.duplicates === false ? ['no duplicate query'] : []),
    ...(budget.failedCalls === false ? ['no failed call'] : []),
    ...(budget.maxDurationMs === undefined ? [] : [`at most ${budget.maxDurationMs} ms`]),
  ];
  return parts.length === 0 ? 'no budget' : parts.join(', ');
}
