import { type ExplainOutput } from './explain-result';
import { mysqlPlanNodes } from './mysql-plan-tree';
import { pgPlanNodes } from './pg-plan-tree';
import { type PlanNode, type PlanTree } from './plan-node';

/** The plan EXPLAIN answered, read as a tree in the same terms for every database. */
export function planTree(output: ExplainOutput): PlanTree {
  if (typeof output.plan === 'string') return { nodes: [], notes: [], text: output.plan };
  return { ...(output.dialect === 'pg' ? pgPlanNodes(output.plan) : mysqlPlanNodes(output.plan)), text: null };
}

/** How many nodes of `nodes` and their children are full scans. */
export function countFullScans(nodes: readonly PlanNode[]): number {
  return nodes.reduce((count, node) => count + (node.fullScan ? 1 : 0) + countFullScans(node.children), 0);
}
