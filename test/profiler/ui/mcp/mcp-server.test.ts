import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Redis from 'ioredis';
import { LoupeResponse } from '../../../../src';
import { MCP_ANSWER_CHARS } from '../../../../src/profiler/ui/mcp/bound-answer';
import { profiledRequest } from '../../app-io/io-app';
import { ROWS, startBudgetApp, type BudgetApp } from '../../budget/budget-app';
import { TYPESCRIPT } from '../../../helpers/typescript-loader';

// `loupe mcp` spawned as a coding agent does, spoken to with the MCP SDK's own Client over stdio,
// on the profiles a debug server stored for real requests that ran real SQL on PostgreSQL.

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const APP_FILE = path.join(ROOT, 'test', 'profiler', 'budget', 'budget-app.ts');
const TOOLS = ['search_profiles', 'show_profile', 'query_problems', 'recent_errors', 'compare_profiles', 'explain_query', 'check_budgets'];
/** Queries `/many` runs, each with a long statement: its whole profile is longer than an answer may be. */
const MANY = 60;
const PADDING = 'x'.repeat(150);
const BROKEN = 'The stock of item 3 went negative';

let app: BudgetApp;
let client: Client;
const tokens: Record<string, string> = {};

/** `…/budget-app.ts:LINE` of the first line of the app that contains `text`. */
function appLine(text: string): string {
  const index = readFileSync(APP_FILE, 'utf8').split('\n').findIndex((line) => line.includes(text));
  if (index === -1) throw new Error(`budget-app.ts has no line with ${text}`);
  return `${APP_FILE}:${index + 1}`;
}

/** A client connected to a `loupe mcp` of its own, with `env` on top of the app's prefix. */
async function connect(env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...TYPESCRIPT, path.join(ROOT, 'bin', 'loupe.js'), 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), LOUPE_CLI_FROM_SOURCE: '1', REDIS_PREFIX: app.prefix, PROFILER_EXPLAIN_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', ...env },
    stderr: 'ignore',
  });
  const connected = new Client({ name: 'loupe-test', version: '1.0.0' });
  await connected.connect(transport);
  return connected;
}

/** Calls `name` and answers its text and whether it is an error result. */
async function call(name: string, args: Record<string, unknown> = {}, on: Client = client): Promise<{ text: string; isError: boolean }> {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { text, isError: result.isError === true };
}

/** Every key of the app's prefix with its serialized value: what a tool that wrote would change. */
async function storedKeys(): Promise<Map<string, string>> {
  const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
  await redis.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${app.prefix}*`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    const values = new Map<string, string>();
    for (const key of keys.sort()) values.set(key, (await redis.dumpBuffer(key))?.toString('base64') ?? '');
    return values;
  } finally {
    redis.disconnect();
  }
}

test.before(async () => {
  app = await startBudgetApp((pool, table) => [
    {
      name: 'broken',
      path: '/broken',
      methods: ['GET'],
      controller: {
        name: 'broken',
        handle: () => {
          throw new Error(BROKEN);
        },
      },
    },
    {
      name: 'many',
      path: '/many',
      methods: ['GET'],
      controller: {
        name: 'many',
        handle: async () => {
          for (let id = 1; id <= MANY; id++) await pool.query(`SELECT name, '${PADDING}' AS padding FROM ${table} WHERE id = $1`, [id]);
          return LoupeResponse.json({ ran: MANY });
        },
      },
    },
  ]);
  for (const route of ['clean', 'loop', 'failing', 'slow', 'broken', 'many']) tokens[route] = (await profiledRequest(app.io, { path: `/${route}` })).profile.token;
  client = await connect();
});

test.after.always(async () => {
  await client?.close();
  await app?.close();
});

test('loupe mcp lists its seven tools, each read-only and described for an agent', async (t) => {
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((tool) => tool.name), TOOLS);
  for (const tool of tools) {
    t.is(tool.annotations?.readOnlyHint, true, tool.name);
    t.true((tool.description ?? '').length > 200, tool.name);
  }
});

test('search_profiles finds a request by URL and by N+1, as profiler:list does', async (t) => {
  const byUrl = await call('search_profiles', { url: '/loop' });
  t.false(byUrl.isError, byUrl.text);
  t.regex(byUrl.text, /^Token +Status +Method +URL/);
  t.true(byUrl.text.includes(tokens['loop'] ?? '?'));
  t.false(byUrl.text.includes(tokens['clean'] ?? '?'));
  t.regex(byUrl.text, /Rows 1-1 of 1, page 1 of 1\.\n$/);
  const loops = await call('search_profiles', { nPlusOne: true });
  t.deepEqual([...loops.text.matchAll(/^([0-9a-f]{6}) /gm)].map((match) => match[1]).sort(), [tokens['loop'], tokens['many']].sort());
  const errors = await call('search_profiles', { status: '5xx' });
  t.true(errors.text.includes(tokens['broken'] ?? '?'), errors.text);
  const byCode = await call('search_profiles', { status: 500 });
  t.deepEqual([...byCode.text.matchAll(/^([0-9a-f]{6}) /gm)].map((match) => match[1]), [tokens['broken']]);
});

test('show_profile reads a profile as profiler:show prints it, or one panel of it', async (t) => {
  const whole = await call('show_profile', { token: tokens['loop'] });
  t.false(whole.isError, whole.text);
  t.true(whole.text.startsWith(`Profile ${tokens['loop'] ?? '?'} (main request)\n\nSummary\n`));
  for (const title of ['\nPhases\n', '\nRouting\n', '\nDatabase\n', '\nRequest headers\n']) t.true(whole.text.includes(title), title);
  const database = await call('show_profile', { token: tokens['loop'], panel: 'database' });
  t.true(database.text.startsWith(`Profile ${tokens['loop'] ?? '?'} (main request)\n\nDatabase\n  ${ROWS + 1} queries in `), database.text);
  t.false(database.text.includes('\nSummary\n'));
  t.true(database.text.includes(`at ${appLine('WHERE id = $1')}`));
  const errors = await call('show_profile', { token: tokens['broken'], panel: 'errors' });
  t.is((await call('show_profile', { token: tokens['broken'], panel: 'exception' })).text, errors.text);
  t.regex(errors.text, new RegExp(`Errors\\n  1\\) Error: 500 Internal Server Error\\n       ${BROKEN}`));
  const unknown = await call('show_profile', { token: tokens['loop'], panel: 'nothing' });
  t.true(unknown.isError);
  t.regex(unknown.text, /has no section "nothing": ask for one of summary, phases, .*database, http, redis/);
});

test('query_problems names the N+1 query\'s line, the loop\'s line and the batched query, for a token and among the newest requests', async (t) => {
  const one = await call('query_problems', { token: tokens['loop'] });
  t.false(one.isError, one.text);
  t.true(one.text.startsWith(`Profile ${tokens['loop'] ?? '?'}  GET http://127.0.0.1:${app.io.port}/loop  200  route loop`), one.text);
  t.true(one.text.includes(`${ROWS}x  `));
  t.true(one.text.includes(`SELECT name FROM ${app.table} WHERE id = ?`));
  t.true(one.text.includes(`from ${appLine('WHERE id = $1')}`));
  t.true(one.text.includes(`in the loop at ${appLine('for (const row of rows)')}`), one.text);
  t.true(one.text.includes(`batched: SELECT name FROM ${app.table} WHERE id = ANY($1)`), one.text);
  t.true(one.text.includes(`${ROWS - 1} round trips fewer`));
  const slow = await call('query_problems', { token: tokens['slow'] });
  t.regex(slow.text, /Slow queries \(at least \d+ ms\)\n +#1 +\d/);
  t.true(slow.text.includes('SELECT pg_sleep('));
  const clean = await call('query_problems', { token: tokens['clean'] });
  t.true(clean.text.endsWith('No N+1 and no slow query.\n'));
  const recent = await call('query_problems', {});
  t.regex(recent.text, /^3 of the \d+ newest requests ran a query in a loop \(N\+1\) or a slow query:/);
  for (const route of ['loop', 'slow', 'many']) t.true(recent.text.includes(`Profile ${tokens[route] ?? '?'}`), route);
  t.false(recent.text.includes(`Profile ${tokens['clean'] ?? '?'}`));
});

test('recent_errors lists the request that answered 500 with its message and frame, and the failed calls with their lines', async (t) => {
  const { text, isError } = await call('recent_errors', {});
  t.false(isError, text);
  t.regex(text, /^2 of the \d+ newest requests read had errors, newest first:/);
  const broken = text.indexOf(`Profile ${tokens['broken'] ?? '?'}`);
  const failing = text.indexOf(`Profile ${tokens['failing'] ?? '?'}`);
  t.true(broken > 0 && failing > broken, text);
  t.true(text.includes(`  1) Error: 500 Internal Server Error\n       ${BROKEN}\n         at `));
  t.true(text.includes(`failed SQL query SELECT * FROM ${app.table}_missing: relation "${app.table}_missing" does not exist  at ${appLine('_missing`')}`));
  t.regex(text, /failed HTTP call GET http:\/\/127\.0\.0\.1:\d+\/status\/502: 502 {2}at /);
});

test('compare_profiles compares two profiles as profiler:diff does, and says when a token has no earlier request to compare with', async (t) => {
  const both = await call('compare_profiles', { a: tokens['clean'], b: tokens['loop'] });
  t.false(both.isError, both.text);
  t.true(both.text.startsWith(`Compare ${tokens['clean'] ?? '?'} (A) with ${tokens['loop'] ?? '?'} (B)\n`));
  t.true(both.text.includes('Query shapes added (2)'));
  const alone = await call('compare_profiles', { b: tokens['loop'] });
  t.true(alone.isError);
  t.regex(alone.text, /^No earlier profile of the route of GET \S+ to compare [0-9a-f]{6} with: name two tokens, a and b\.$/);
});

test('explain_query answers the EXPLAIN plan of a stored query, never EXPLAIN ANALYZE, and a refusal as an error with the reason', async (t) => {
  const plan = await call('explain_query', { token: tokens['loop'], query: 2 });
  t.false(plan.isError, plan.text);
  t.true(plan.text.startsWith(`EXPLAIN of query #2 of ${tokens['loop'] ?? '?'}\n  SELECT name FROM ${app.table} WHERE id = $1\n  Parameters: [1]\n`), plan.text);
  t.true(plan.text.includes('in a read-only transaction, rolled back'));
  t.regex(plan.text, /rows=\d+ cost=/);
  t.false(plan.text.includes('actual rows'));
  const missing = await call('explain_query', { token: tokens['loop'], query: 99 });
  t.true(missing.isError);
  t.is(missing.text, `No such query. Profile ${tokens['loop'] ?? '?'} has no query #99 (it has ${ROWS + 1}).`);
});

test('check_budgets answers the over-budget list with each request\'s route and line', async (t) => {
  const { text, isError } = await call('check_budgets', { noNPlusOne: true, route: 'loop' });
  t.false(isError, text);
  t.true(text.startsWith('1 of 1 profile of the route "loop" over budget (no N+1).\n\nToken'), text);
  t.true(text.includes(`${tokens['loop'] ?? '?'}  loop   GET /loop  N+1: SELECT name FROM ${app.table} WHERE id = ? run ${ROWS} times  ${appLine('WHERE id = $1')}`), text);
  const within = await call('check_budgets', { route: 'clean', maxQueries: 1 });
  t.is(within.text, '1 profile of the route "clean" within budget (at most 1 query).\n');
  const none = await call('check_budgets', {});
  t.true(none.isError);
  t.regex(none.text, /^check_budgets needs a budget/);
});

test(`every answer is at most ${MCP_ANSWER_CHARS} characters: a longer one is cut at a line and says what was cut`, async (t) => {
  const whole = await call('show_profile', { token: tokens['many'] });
  t.false(whole.isError);
  t.true(whole.text.length <= MCP_ANSWER_CHARS, String(whole.text.length));
  t.regex(whole.text, /\n… truncated: \d+ more lines \(\d+ characters\) not shown\. An answer holds at most 20000 characters: ask for less \(one panel, a smaller limit, one token\)\.\n$/);
  const summary = await call('show_profile', { token: tokens['many'], panel: 'summary' });
  t.false(summary.text.includes('truncated'));
});

test('an unknown token, a bad argument and a Redis that is down are tool errors with the reason, and the server goes on answering', async (t) => {
  for (const [name, args] of [
    ['show_profile', { token: 'ffffff' }],
    ['query_problems', { token: 'ffffff' }],
    ['explain_query', { token: 'ffffff', query: 1 }],
    ['compare_profiles', { a: 'ffffff', b: tokens['loop'] }],
  ] as const) {
    const answer = await call(name, args);
    t.true(answer.isError, name);
    t.is(answer.text, 'Token "ffffff" not found.', name);
  }
  const since = await call('search_profiles', { since: 'yesterday' });
  t.true(since.isError);
  t.regex(since.text, /expects a duration such as 30s, 10m, 2h or 1d, got "yesterday"/);
  const down = await connect({ REDIS_URL: 'redis://127.0.0.1:1' });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await call('search_profiles', {}, down);
      t.true(answer.isError);
      t.regex(answer.text, /redis:\/\/127\.0\.0\.1:1/);
    }
  } finally {
    await down.close();
  }
  t.false((await call('search_profiles', { limit: 1 })).isError);
});

test('no tool writes: every stored key and value is the same after each tool has been called', async (t) => {
  const before = await storedKeys();
  t.true(before.size > 0);
  await call('search_profiles', { limit: 100 });
  await call('show_profile', { token: 'latest' });
  await call('query_problems', {});
  await call('recent_errors', { clientErrors: true });
  await call('compare_profiles', { a: tokens['clean'], b: tokens['loop'] });
  await call('explain_query', { token: tokens['loop'], query: 1 });
  await call('check_budgets', { maxQueries: 0, noFailedCalls: true });
  t.deepEqual(await storedKeys(), before);
});
