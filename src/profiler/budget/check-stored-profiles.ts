import { parseProfile } from '../profile-schema';
import { type ProfileCriteria, type ProfileStorage } from '../storage/profile-storage';
import { checkBudget, type BudgetViolation, type ProfileBudget } from './check-budget';

/** Rows asked for per search page: the most the storage answers at once. */
const PAGE = 1000;
/** Profiles read at once. */
const READS = 16;

/** The stored profiles checked against a budget: the excesses, how many were checked, and what could not be read. */
export interface StoredProfilesCheck {
  readonly violations: readonly BudgetViolation[];
  readonly checked: number;
  /** `(unreadable row TOKEN: why)`, `(unreadable profile TOKEN: why)`: left out, not counted. */
  readonly skipped: readonly string[];
}

/** The tokens of every stored profile matching `criteria`, page by page. */
async function matchingTokens(storage: ProfileStorage, criteria: ProfileCriteria): Promise<{ tokens: string[]; unreadable: string[] }> {
  const tokens: string[] = [];
  const unreadable: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await storage.search({ ...criteria, offset, limit: PAGE });
    for (const row of page.rows) {
      if (row.ok) tokens.push(row.summary.token);
      else unreadable.push(`(unreadable row ${row.token}: ${row.error})`);
    }
    if (page.rows.length < PAGE || offset + PAGE >= page.total) return { tokens, unreadable };
  }
}

/** Checks each profile of `tokens`, READS at a time; a profile gone or unreadable since the search is said, not counted. */
async function checkAll(storage: ProfileStorage, tokens: readonly string[], budget: ProfileBudget): Promise<{ violations: BudgetViolation[]; checked: number; skipped: string[] }> {
  const violations: BudgetViolation[] = [];
  const skipped: string[] = [];
  let checked = 0;
  for (let start = 0; start < tokens.length; start += READS) {
    const reads = await Promise.all(tokens.slice(start, start + READS).map(async (token) => ({ token, found: await storage.read(token) })));
    for (const { token, found } of reads) {
      if (found.kind !== 'found') continue;
      const parsed = parseProfile(found.json);
      if (!parsed.ok) {
        skipped.push(`(unreadable profile ${token}: ${parsed.error})`);
        continue;
      }
      checked++;
      violations.push(...checkBudget(parsed.profile, budget));
    }
  }
  return { violations, checked, skipped };
}

/**
 * Every stored profile matching `criteria` (at most SEARCH_SCAN_LIMIT, all pages) checked
 * against `budget`: what `loupe profiler:check` and the MCP server's check tool report.
 */
export async function checkStoredProfiles(storage: ProfileStorage, criteria: ProfileCriteria, budget: ProfileBudget): Promise<StoredProfilesCheck> {
  const { tokens, unreadable } = await matchingTokens(storage, criteria);
  const checked = await checkAll(storage, tokens, budget);
  return { ...checked, skipped: [...unreadable, ...checked.skipped] };
}
