import { planNumber, planObject, type PlanNode, type PlanTree } from './plan-node';

/** The keys of a PostgreSQL plan node shown as its details, in this order. */
const DETAILS = ['Index Cond', 'Recheck Cond', 'Filter', 'Rows Removed by Filter', 'Join Filter', 'Hash Cond', 'Merge Cond', 'Sort Key', 'Sort Method', 'Group Key', 'Subplan Name', 'Shared Hit Blocks', 'Shared Read Blocks'] as const;

function detailText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/** `Seq Scan on posts p`, `Index Scan using posts_pkey on posts`, `Hash Left Join`. */
function labelOf(node: Readonly<Record<string, unknown>>): string {
  const type = String(node['Node Type'] ?? 'Plan');
  const join = typeof node['Join Type'] === 'string' && node['Join Type'] !== 'Inner' ? `${node['Join Type']} ` : '';
  const index = typeof node['Index Name'] === 'string' ? ` using ${node['Index Name']}` : '';
  const relation = node['Relation Name'] ?? node['CTE Name'] ?? node['Function Name'];
  const alias = typeof node['Alias'] === 'string' && node['Alias'] !== relation ? ` ${node['Alias']}` : '';
  return `${join}${type}${index}${typeof relation === 'string' ? ` on ${relation}${alias}` : ''}`;
}

function pgNode(value: unknown): PlanNode {
  const node = planObject(value);
  const children = Array.isArray(node['Plans']) ? (node['Plans'] as unknown[]).map(pgNode) : [];
  return {
    label: labelOf(node),
    fullScan: node['Node Type'] === 'Seq Scan',
    rows: planNumber(node['Plan Rows']),
    cost: planNumber(node['Total Cost']),
    actualRows: planNumber(node['Actual Rows']),
    actualMs: planNumber(node['Actual Total Time']),
    loops: planNumber(node['Actual Loops']),
    details: DETAILS.flatMap((key) => (node[key] === undefined || node[key] === 0 ? [] : [`${key}: ${detailText(node[key])}`])),
    children,
  };
}

/** The tree of `EXPLAIN (FORMAT JSON)`: `[{ "Plan": {…, "Plans": […]}, "Planning Time": …, "Execution Time": … }]`. */
export function pgPlanNodes(plan: unknown): Omit<PlanTree, 'text'> {
  const roots = (Array.isArray(plan) ? plan : [plan]).map(planObject);
  const notes = roots.flatMap((root) =>
    (['Planning Time', 'Execution Time'] as const).flatMap((key) => {
      const ms = planNumber(root[key]);
      return ms === null ? [] : [`${key}: ${ms} ms`];
    }),
  );
  return { nodes: roots.filter((root) => root['Plan'] !== undefined).map((root) => pgNode(root['Plan'])), notes };
}
