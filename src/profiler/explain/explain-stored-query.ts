import { type StoredQuery } from '../app-io/analyze-calls';
import { DATABASE_COLLECTOR, type DatabaseCollectorData } from '../collect/collectors/app-io-collectors';
import { collectorData, type Profile } from '../profile';
import { explainDatabaseFor, hideUrlPassword, type ExplainConfig } from './explain-config';
import { explainOnMysql } from './explain-on-mysql';
import { explainOnPostgres } from './explain-on-postgres';
import { type ExplainOutput, type ExplainRun } from './explain-result';
import { explainableQuery } from './explainable-query';
import { DriverNotInstalledError } from './load-app-driver';
import { type PlanTree } from './plan-node';
import { countFullScans, planTree } from './plan-tree';

/** Why a query was not explained, as an HTTP status says it and in words. */
export type ExplainRefusal = {
  readonly ok: false;
  /** 404: no such query; 422: a query EXPLAIN refuses; 503: not configured, no driver; 502: the database failed. */
  readonly status: 404 | 422 | 502 | 503;
  readonly title: string;
  readonly reason: string;
  readonly query: StoredQuery | null;
};

/** A query explained: what ran where, and its plan as a tree. */
export type Explained = {
  readonly ok: true;
  readonly query: StoredQuery;
  /** The database explained on: its URL, password hidden. */
  readonly database: string;
  readonly output: ExplainOutput;
  readonly tree: PlanTree;
  readonly fullScans: number;
};

export type Explanation = Explained | ExplainRefusal;

/** What a query of the profile is explained with: the drivers' runs by default, another in a unit test. */
export type ExplainRunner = (dialect: ExplainOutput['dialect'], run: ExplainRun) => Promise<ExplainOutput>;

const RUN_ON_DRIVER: ExplainRunner = (dialect, run) => (dialect === 'pg' ? explainOnPostgres(run) : explainOnMysql(run));

function refused(status: ExplainRefusal['status'], title: string, reason: string, query: StoredQuery | null = null): ExplainRefusal {
  return { ok: false, status, title, reason, query };
}

/**
 * EXPLAIN (with `analyze`: EXPLAIN ANALYZE, which runs the query) of query `number` (1-based, as
 * the Database panel numbers them) of `profile`, with its stored parameters, on the database
 * PROFILER_EXPLAIN_DATABASE_URL names for its dialect, in a read-only transaction rolled back,
 * within PROFILER_EXPLAIN_TIMEOUT_MS. Answers the plan, or why not; never throws.
 */
export async function explainStoredQuery(profile: Profile, number: number, config: ExplainConfig, analyze: boolean, runner: ExplainRunner = RUN_ON_DRIVER): Promise<Explanation> {
  const queries = collectorData<DatabaseCollectorData>(profile, DATABASE_COLLECTOR)?.queries ?? [];
  const query = Number.isInteger(number) && number >= 1 ? queries[number - 1] : undefined;
  if (query === undefined) return refused(404, 'No such query', `Profile ${profile.token} has no query #${number} (it has ${queries.length}).`);
  const explainable = explainableQuery(query);
  if (!explainable.ok) return refused(422, 'Query not explained', `Query #${number} is not explained: ${explainable.reason}`, query);
  const database = explainDatabaseFor(config, explainable.dialect);
  if (database === undefined) {
    const example = explainable.dialect === 'pg' ? 'postgres://user@127.0.0.1:5432/app' : 'mysql://root@127.0.0.1:3306/app';
    return refused(503, 'EXPLAIN is not configured', `No ${explainable.dialect === 'pg' ? 'PostgreSQL' : 'MySQL or MariaDB'} database to explain on: set PROFILER_EXPLAIN_DATABASE_URL (e.g. ${example}), best with a user that may only read.`, query);
  }
  try {
    const output = await runner(explainable.dialect, { url: database.url, sql: explainable.sql, params: explainable.params, analyze, timeoutMs: config.timeoutMs });
    const tree = planTree(output);
    return { ok: true, query, database: hideUrlPassword(database.url), output, tree, fullScans: countFullScans(tree.nodes) };
  } catch (error) {
    if (error instanceof DriverNotInstalledError) return refused(503, 'Driver not installed', error.message, query);
    const message = error instanceof Error ? error.message : String(error);
    return refused(502, 'The database refused', `${hideUrlPassword(database.url)} answered: ${message}`, query);
  }
}
