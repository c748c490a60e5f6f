import { type BudgetViolation, type ProfileBudget } from '../budget/check-budget';
import { budgetText } from '../budget/budget-text';
import { DATABASE_COLLECTOR, HTTP_CLIENT_COLLECTOR, REDIS_COLLECTOR, type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../collect/collectors/app-io-collectors';
import { collectorData, type Profile } from '../profile';
import { databaseLines, httpClientLines, redisLines } from '../ui/cli/format/format-app-io';

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : ['', title, ...lines.map((line) => (line === '' ? '' : `  ${line}`))];
}

/** A list of a damaged entry is read as none: the message must be written whatever was stored. */
function listed<TData extends object>(profile: Profile, name: string, list: keyof TData): TData | undefined {
  const data = collectorData<TData>(profile, name);
  return data !== undefined && Array.isArray(data[list]) ? data : undefined;
}

/**
 * What a failing test prints: the request, each excess with its `file:line`, then the queries as
 * `loupe profiler:show` lists them (each with its time, marks and origin), and the HTTP calls and
 * Redis commands when one of them failed, so that the fix starts from the message.
 */
export function budgetFailureMessage(profile: Profile, budget: ProfileBudget, violations: readonly BudgetViolation[]): string {
  const [first] = violations;
  const route = first?.route === null || first === undefined ? '' : `, route "${first.route}"`;
  const lines = [
    `Profile ${profile.token} (${first?.request ?? `${profile.method} ${profile.url}`}${route}) is over budget (${budgetText(budget)}):`,
    ...violations.map((violation) => `  - ${violation.what}${violation.origin === '' ? '' : `\n      at ${violation.origin}`}`),
  ];
  const db = listed<DatabaseCollectorData>(profile, DATABASE_COLLECTOR, 'queries');
  lines.push(...section('Database', db === undefined ? [] : databaseLines(db)));
  if (violations.some((violation) => violation.kind === 'failed-call')) {
    const http = listed<HttpClientCollectorData>(profile, HTTP_CLIENT_COLLECTOR, 'calls');
    const redis = listed<RedisCollectorData>(profile, REDIS_COLLECTOR, 'commands');
    lines.push(...section('HTTP calls', http === undefined ? [] : httpClientLines(http)));
    lines.push(...section('Redis', redis === undefined ? [] : redisLines(redis)));
  }
  return `${lines.join('\n')}\n`;
}
