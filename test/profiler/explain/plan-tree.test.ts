import test from 'ava';
import { planTree, countFullScans } from '../../../src/profiler/explain/plan-tree';

test('a PostgreSQL plan reads as a tree: node, relation, index, join type, rows, cost, actual figures, conditions, and Seq Scans counted', (t) => {
  const tree = planTree({
    dialect: 'pg',
    server: '16',
    analyze: true,
    statement: 'EXPLAIN …',
    plan: [
      {
        Plan: {
          'Node Type': 'Hash Join', 'Join Type': 'Left', 'Total Cost': 10.5, 'Plan Rows': 3, 'Actual Rows': 2, 'Actual Total Time': 0.2, 'Actual Loops': 1, 'Hash Cond': '(p.author_id = a.id)',
          Plans: [
            { 'Node Type': 'Seq Scan', 'Relation Name': 'posts', Alias: 'p', 'Total Cost': 4, 'Plan Rows': 100, Filter: '(id > 3)', 'Rows Removed by Filter': 0 },
            { 'Node Type': 'Hash', Plans: [{ 'Node Type': 'Index Scan', 'Index Name': 'authors_pkey', 'Relation Name': 'authors', Alias: 'authors', 'Index Cond': '(id = 1)' }] },
          ],
        },
        'Planning Time': 0.1,
        'Execution Time': 0.3,
      },
    ],
  });
  const [join] = tree.nodes;
  t.like(join, { label: 'Left Hash Join', fullScan: false, rows: 3, cost: 10.5, actualRows: 2, actualMs: 0.2, loops: 1, details: ['Hash Cond: (p.author_id = a.id)'] });
  t.like(join?.children[0], { label: 'Seq Scan on posts p', fullScan: true, rows: 100, cost: 4, actualRows: null, details: ['Filter: (id > 3)'] });
  t.is(join?.children[1]?.children[0]?.label, 'Index Scan using authors_pkey on authors');
  t.deepEqual(tree.notes, ['Planning Time: 0.1 ms', 'Execution Time: 0.3 ms']);
  t.is(countFullScans(tree.nodes), 1);
});

test('a MariaDB plan reads as a tree: query blocks, the tables of a join, a subquery, and access type ALL as a full scan', (t) => {
  const tree = planTree({
    dialect: 'mysql',
    server: '10.11.19-MariaDB',
    analyze: true,
    statement: 'ANALYZE FORMAT=JSON …',
    plan: {
      query_optimization: { r_total_time_ms: 0.05 },
      query_block: {
        select_id: 1,
        r_loops: 1,
        r_total_time_ms: 0.4,
        nested_loop: [
          { table: { table_name: 'posts', access_type: 'ALL', rows: 60, r_rows: 60, r_loops: 1, filtered: 100, r_filtered: 10, attached_condition: 'posts.author_id = 2' } },
          { table: { table_name: 'authors', access_type: 'eq_ref', key: 'PRIMARY', ref: ['test.posts.author_id'], rows: 1, r_rows: 1 } },
        ],
        subqueries: [{ query_block: { select_id: 2, table: { message: 'No tables used' } } }],
      },
    },
  });
  const [block] = tree.nodes;
  t.like(block, { label: 'query_block #1', actualMs: 0.4, loops: 1 });
  t.like(block?.children[0], { label: 'posts (ALL)', fullScan: true, rows: 60, actualRows: 60 });
  t.true(block?.children[0]?.details.includes('attached_condition: posts.author_id = 2'));
  t.like(block?.children[1], { label: 'authors (eq_ref)', fullScan: false, details: ['key: PRIMARY', 'ref: test.posts.author_id'] });
  t.is(block?.children[2]?.label, 'subqueries');
  t.is(block?.children[2]?.children[0]?.children[0]?.label, 'No tables used');
  t.deepEqual(tree.notes, ['Optimization time: 0.05 ms']);
  t.is(countFullScans(tree.nodes), 1);
});

test('a MySQL plan reads its cost_info and rows_examined_per_scan; a text plan (EXPLAIN ANALYZE) is kept as text', (t) => {
  const tree = planTree({
    dialect: 'mysql',
    server: '8.4.0',
    analyze: false,
    statement: 'EXPLAIN FORMAT=JSON …',
    plan: { query_block: { select_id: 1, cost_info: { query_cost: '6.25' }, table: { table_name: 'posts', access_type: 'ALL', rows_examined_per_scan: 60, cost_info: { prefix_cost: '6.25' } } } },
  });
  t.like(tree.nodes[0], { label: 'query_block #1', cost: 6.25 });
  t.like(tree.nodes[0]?.children[0], { label: 'posts (ALL)', fullScan: true, rows: 60, cost: 6.25 });
  const text = planTree({ dialect: 'mysql', server: '8.4.0', analyze: true, statement: 'EXPLAIN ANALYZE …', plan: '-> Table scan on posts  (actual rows=60 loops=1)\n' });
  t.is(text.text, '-> Table scan on posts  (actual rows=60 loops=1)\n');
  t.deepEqual(text.nodes, []);
});
