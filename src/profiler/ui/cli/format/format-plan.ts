import { type Explained } from '../../../explain/explain-stored-query';
import { type PlanNode } from '../../../explain/plan-node';

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** What a full scan is called where it runs: PostgreSQL's node name, MySQL's access type ALL. */
function fullScanName(dialect: Explained['output']['dialect']): string {
  return dialect === 'pg' ? 'Seq Scan' : 'full table scan';
}

function figures(node: PlanNode): string {
  const parts = [
    node.rows === null ? null : `rows=${NUMBER.format(node.rows)}`,
    node.cost === null ? null : `cost=${NUMBER.format(node.cost)}`,
    node.actualRows === null ? null : `actual rows=${NUMBER.format(node.actualRows)}`,
    node.actualMs === null ? null : `time=${NUMBER.format(node.actualMs)} ms`,
    node.loops === null ? null : `loops=${NUMBER.format(node.loops)}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? '' : `  ${parts.join(' ')}`;
}

function nodeLines(node: PlanNode, depth: number, scanName: string): string[] {
  const indent = '  '.repeat(depth);
  const mark = node.fullScan ? `  [${scanName}]` : '';
  return [
    `${indent}${depth === 0 ? '' : '-> '}${node.label}${figures(node)}${mark}`,
    ...node.details.map((detail) => `${indent}${depth === 0 ? '   ' : '      '}${detail}`),
    ...node.children.flatMap((child) => nodeLines(child, depth + 1, scanName)),
  ];
}

/**
 * `loupe profiler:explain`: the query, where it was explained, then the plan as an indented tree
 * (each step with its rows and cost, actual rows and time after ANALYZE, full scans marked `[Seq
 * Scan]` or `[full table scan]`), as `EXPLAIN` prints it in psql.
 */
export function formatPlan(token: string, number: number, explained: Explained): string {
  const { query, output, tree } = explained;
  const scanName = fullScanName(output.dialect);
  const params = JSON.stringify(query.params);
  const lines = [
    `${output.analyze ? 'EXPLAIN ANALYZE' : 'EXPLAIN'} of query #${number} of ${token}`,
    `  ${query.sql.replace(/\s*\n\s*/g, ' ')}`,
    ...(params === '[]' || params === '{}' || params === undefined ? [] : [`  Parameters: ${params}`]),
    `  ${query.driver} · explained on ${explained.database} (${output.server}) · in a read-only transaction, rolled back`,
    `  ${explained.fullScans} ${scanName}${explained.fullScans === 1 ? '' : 's'}`,
    '',
    ...(tree.text === null ? tree.nodes.flatMap((node) => nodeLines(node, 0, scanName)) : tree.text.trimEnd().split('\n')),
    ...(tree.notes.length === 0 ? [] : ['', ...tree.notes]),
  ];
  return `${lines.join('\n')}\n`;
}
