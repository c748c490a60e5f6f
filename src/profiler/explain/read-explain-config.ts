import { integer, invalid, list, type Env } from '../../config/env-values';
import { EXPLAIN_DEFAULTS, EXPLAIN_SCHEMES, hideUrlPassword, type ExplainConfig, type ExplainDatabase } from './explain-config';

function readDatabase(raw: string): ExplainDatabase {
  const shown = hideUrlPassword(raw);
  let scheme: string;
  try {
    scheme = new URL(raw).protocol.replace(/:$/, '').toLowerCase();
  } catch {
    throw invalid('PROFILER_EXPLAIN_DATABASE_URL', shown, 'database URLs, comma-separated, e.g. postgres://user@127.0.0.1:5432/app,mysql://root@127.0.0.1:3306/app');
  }
  const dialect = EXPLAIN_SCHEMES[scheme];
  if (dialect === undefined) throw invalid('PROFILER_EXPLAIN_DATABASE_URL', shown, `a URL whose scheme is one of ${Object.keys(EXPLAIN_SCHEMES).join(', ')}`);
  return { dialect, url: raw };
}

/**
 * PROFILER_EXPLAIN_DATABASE_URL (the databases EXPLAIN connects to: one PostgreSQL URL, one MySQL
 * or MariaDB URL, or both, comma-separated) and PROFILER_EXPLAIN_TIMEOUT_MS, validated. A URL is
 * never repeated in an error with its password.
 */
export function readExplainConfig(env: Env): ExplainConfig {
  const databases = list(env, 'PROFILER_EXPLAIN_DATABASE_URL', []).map(readDatabase);
  for (const [at, database] of databases.entries()) {
    // Which one a query of that dialect goes to would be a guess.
    if (databases.findIndex((other) => other.dialect === database.dialect) !== at) {
      throw invalid('PROFILER_EXPLAIN_DATABASE_URL', hideUrlPassword(database.url), `one URL per kind of database (one PostgreSQL, one MySQL or MariaDB)`);
    }
  }
  return Object.freeze({
    databases: Object.freeze(databases.map((database) => Object.freeze(database))),
    timeoutMs: integer(env, 'PROFILER_EXPLAIN_TIMEOUT_MS', EXPLAIN_DEFAULTS.timeoutMs, 1, 600_000),
  });
}
