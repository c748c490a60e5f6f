/** One step of a plan: a scan, a join, a sort, a query block. */
export interface PlanNode {
  /** What the step does and on what: `Seq Scan on posts`, `posts (ALL)`. */
  readonly label: string;
  /** Every row of a table read (PostgreSQL's Seq Scan, MySQL's access type ALL): what an index would avoid. */
  readonly fullScan: boolean;
  /** Rows the planner expects the step to give (MySQL: to examine). */
  readonly rows: number | null;
  /** The planner's total cost of the step, in its own units. */
  readonly cost: number | null;
  /** With ANALYZE: rows the step gave, per loop. */
  readonly actualRows: number | null;
  /** With ANALYZE: milliseconds the step took, per loop. */
  readonly actualMs: number | null;
  /** With ANALYZE: how many times the step ran. */
  readonly loops: number | null;
  /** Its conditions and keys, each as `Name: value`. */
  readonly details: readonly string[];
  readonly children: readonly PlanNode[];
}

/** A plan as a tree, with what the database said about it as a whole (planning and execution time). */
export interface PlanTree {
  readonly nodes: readonly PlanNode[];
  readonly notes: readonly string[];
  /** A plan the server gives as text only (MySQL's EXPLAIN ANALYZE), shown as it came. */
  readonly text: string | null;
}

/** A number of a plan's JSON, which MySQL gives as strings (`"query_cost": "1.25"`). */
export function planNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** A plan's JSON object, or an empty one. */
export function planObject(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
