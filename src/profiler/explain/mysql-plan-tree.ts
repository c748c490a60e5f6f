import { planNumber, planObject, type PlanNode, type PlanTree } from './plan-node';

/** Keys whose nodes are listed in their parent's place: a join's tables are its query block's children. */
const PASS_THROUGH: ReadonlySet<string> = new Set(['nested_loop', 'query_specifications']);

/** The keys of a table shown as its details, in this order (MariaDB's, then MySQL's own). */
const TABLE_DETAILS = ['key', 'possible_keys', 'used_key_parts', 'ref', 'index_condition', 'attached_condition', 'filtered', 'r_filtered', 'using_index', 'message', 'using_filesort', 'using_temporary_table'] as const;

function detailText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

function emptyNode(label: string, children: readonly PlanNode[]): PlanNode {
  return { label, fullScan: false, rows: null, cost: null, actualRows: null, actualMs: null, loops: null, details: [], children };
}

/** The nodes under every key of `object` whose value is an object or a list. */
function childrenOf(object: Readonly<Record<string, unknown>>): PlanNode[] {
  return Object.entries(object).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? nodesOf(key, value) : []));
}

function tableNode(table: Readonly<Record<string, unknown>>): PlanNode {
  const access = typeof table['access_type'] === 'string' ? table['access_type'] : null;
  const name = typeof table['table_name'] === 'string' ? table['table_name'] : typeof table['message'] === 'string' ? table['message'] : 'table';
  const cost = planObject(table['cost_info']);
  return {
    label: access === null ? name : `${name} (${access})`,
    fullScan: access === 'ALL',
    rows: planNumber(table['rows'] ?? table['rows_examined_per_scan']),
    cost: planNumber(table['cost'] ?? cost['prefix_cost'] ?? cost['read_cost']),
    actualRows: planNumber(table['r_rows']),
    actualMs: planNumber(table['r_table_time_ms'] ?? table['r_total_time_ms']),
    loops: planNumber(table['r_loops']),
    details: TABLE_DETAILS.flatMap((key) => (table[key] === undefined || (key === 'message' && name === table[key]) ? [] : [`${key}: ${detailText(table[key])}`])),
    children: childrenOf(table),
  };
}

function blockNode(block: Readonly<Record<string, unknown>>): PlanNode {
  const cost = planObject(block['cost_info']);
  return {
    ...emptyNode(`query_block #${String(block['select_id'])}`, childrenOf(block)),
    cost: planNumber(block['cost'] ?? cost['query_cost']),
    actualMs: planNumber(block['r_total_time_ms']),
    loops: planNumber(block['r_loops']),
  };
}

/**
 * The nodes of one key of MariaDB's or MySQL's JSON plan: a table, a query block, an operation
 * (filesort, temporary_table, subqueries, union_result…) with what it works on, or the nodes a
 * join lists. The two servers' formats differ (MariaDB: `rows`, `r_rows`; MySQL: `cost_info`,
 * `rows_examined_per_scan`); the walk reads the keys each has.
 */
function nodesOf(key: string, value: unknown): PlanNode[] {
  if (Array.isArray(value)) {
    const items = value.flatMap((item) => (typeof item === 'object' && item !== null ? childrenOf(planObject(item)) : []));
    return PASS_THROUGH.has(key) || items.length === 0 ? items : [emptyNode(key, items)];
  }
  const object = planObject(value);
  if (key === 'table' || typeof object['table_name'] === 'string') return [tableNode(object)];
  if (object['select_id'] !== undefined) return [blockNode(object)];
  const children = childrenOf(object);
  return PASS_THROUGH.has(key) || children.length === 0 ? children : [emptyNode(key, children)];
}

/** The tree of `EXPLAIN FORMAT=JSON` (and MariaDB's `ANALYZE FORMAT=JSON`): `{ "query_block": {…} }`. */
export function mysqlPlanNodes(plan: unknown): Omit<PlanTree, 'text'> {
  const root = planObject(plan);
  const optimization = planNumber(planObject(root['query_optimization'])['r_total_time_ms']);
  return { nodes: nodesOf('query_block', root['query_block']), notes: optimization === null ? [] : [`Optimization time: ${optimization} ms`] };
}
