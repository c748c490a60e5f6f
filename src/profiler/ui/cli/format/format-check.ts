import { formatTable } from '../../../../cli/format/format-table';
import { budgetText } from '../../../budget/budget-text';
import { type BudgetViolation, type ProfileBudget } from '../../../budget/check-budget';
import { type StoredProfilesCheck } from '../../../budget/check-stored-profiles';

/** The excesses of `profiler:check`, one row each: token, route, request, what is over budget, and the application's file:line. */
export function formatViolations(violations: readonly BudgetViolation[]): string {
  return formatTable(['Token', 'Route', 'Request', 'Over budget', 'Origin'], violations.map((v) => [v.token, v.route ?? '-', v.request, v.what, v.origin === '' ? '-' : v.origin]));
}

/** ` of the route "NAME" of the last 10m`: which profiles a check read, for its verdict. */
export function checkScope(route: string | undefined, since: string | undefined): string {
  return `${route === undefined ? '' : ` of the route "${route}"`}${since === undefined ? '' : ` of the last ${since}`}`;
}

/**
 * The verdict of a check, one line: how many profiles of `scope` are over or within `budget`, or
 * that none is stored under `prefix` (nothing checked: a wrong prefix would otherwise pass).
 */
export function checkVerdict(check: StoredProfilesCheck, scope: string, budget: ProfileBudget, prefix: string): string {
  if (check.checked === 0) return `No profile${scope} is stored under the prefix "${prefix}": nothing was checked. --prefix PREFIX (or REDIS_PREFIX) names the server's.\n`;
  const over = new Set(check.violations.map((violation) => violation.token)).size;
  const profiles = `${check.checked} ${check.checked === 1 ? 'profile' : 'profiles'}`;
  return over === 0 ? `${profiles}${scope} within budget (${budgetText(budget)}).\n` : `${over} of ${profiles}${scope} over budget (${budgetText(budget)}).\n`;
}
