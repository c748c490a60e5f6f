import { AsyncResource } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { AppIoKinds, type DbQueryEntry } from './app-io-entries';
import { captureOrigin, STACK_DEPTH, StackReach, withOrigin } from './capture-origin';
import { onLibraryLoad } from './on-library-load';
import { closeCall, openCall, type OpenCall } from './open-call';
import { requestContext } from '../../kernel/request-context';
import { subscribeTracing, type TracingContext } from './subscribe-tracing';
import { wrapMethod, type Method } from './wrap-method';

/** What mysql2 (3.2x) publishes of a query or an execute. */
interface Mysql2Context extends TracingContext {
  readonly query: string;
  readonly values?: unknown;
  readonly database: string;
  result?: unknown;
}

/** A table name, maybe schema-qualified, in backticks or double quotes (`public.posts`, `` `posts` ``, `"posts"`, as Drizzle writes it). */
const TABLE = /^\s*((?:`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:`[^`]+`|"[^"]+"|[A-Za-z_][\w$]*))?)/;
/** Strings, double-quoted names (a string to MySQL) and comments: no table is looked for in them. */
const HIDDEN = /'(?:[^']|'')*'?|"(?:[^"]|"")*"?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;
/** Where each verb names its table (OpenTelemetry's `db.collection.name`). */
const TABLE_AFTER: Readonly<Record<string, RegExp>> = { SELECT: /\bFROM\b/i, DELETE: /\bFROM\b/i, INSERT: /\bINTO\b/i, REPLACE: /\bINTO\b/i, UPDATE: /^/ };

/** Span names by statement: an application sends the same few statements again and again, a loop's at every turn. */
const spanNames = new Map<string, string>();
/** Enough for every statement of an application; one that makes more (literals in its SQL) starts over. */
const MAX_SPAN_NAMES = 1_000;
/** Longer statements (a bulk INSERT's) are named each time rather than kept. */
const MAX_NAMED_LENGTH = 2_048;

/**
 * The span's name, as OpenTelemetry names a database span (`SELECT posts`): the statement's first
 * word and the table it reads or writes when a simple scan finds one (`sql SELECT posts`), else
 * the word alone (`sql SELECT`). A table name is an identifier of the schema, never a value.
 */
export function spanName(sql: string): string {
  const known = spanNames.get(sql);
  if (known !== undefined) return known;
  const name = nameStatement(sql);
  if (sql.length <= MAX_NAMED_LENGTH) {
    if (spanNames.size >= MAX_SPAN_NAMES) spanNames.clear();
    spanNames.set(sql, name);
  }
  return name;
}

function nameStatement(sql: string): string {
  const match = /^\s*(?:\/\*.*?\*\/\s*)*([A-Za-z]+)/s.exec(sql);
  const verb = match?.[1]?.toUpperCase();
  if (match === null || verb === undefined) return 'sql query';
  // Blanked, not removed: a value in a string ('… FROM secret') never reads as a table.
  const rest = sql.slice(match[0].length).replace(HIDDEN, (text) => ' '.repeat(text.length));
  const marker = TABLE_AFTER[verb]?.exec(rest);
  // The name is read from the statement itself, where a quoted one ("posts") is not blanked: right after FROM, INTO or UPDATE a quoted word is a name in either dialect.
  const table = marker === undefined || marker === null ? undefined : TABLE.exec(sql.slice(match[0].length + marker.index + marker[0].length))?.[1];
  return table === undefined ? `sql ${verb}` : `sql ${verb} ${table.replace(/[`"]/g, '')}`;
}

function dbEntry(driver: string, sql: string, params: unknown, database: string) {
  return (start: number, origin: DbQueryEntry['origin']): DbQueryEntry => ({ start, duration: null, error: null, origin, driver, sql, params: params ?? [], database, rows: null });
}

/** Rows a driver's result holds: a row array, a result header's affected rows, pg's rowCount. */
function rowsOf(result: unknown): number | null {
  if (Array.isArray(result)) {
    // mysql2 answers [rows, fields] through its promise API, rows alone through callbacks.
    const [first] = result;
    return Array.isArray(first) ? first.length : result.length;
  }
  if (typeof result !== 'object' || result === null) return null;
  const { affectedRows, rowCount } = result as { affectedRows?: unknown; rowCount?: unknown };
  if (typeof rowCount === 'number') return rowCount;
  if (typeof affectedRows === 'number') return affectedRows;
  return null;
}

/** How deep the application's frame lies where a pool is asked for a connection. */
const poolReach = new StackReach();

/** Pool prototypes whose callbacks are bound: copies of pg that share one pg-pool bind it once. */
const boundPools = new WeakSet<object>();

/**
 * A pool hands a queued caller its connection from the code that released one, in that
 * request's context, and with none of the caller's frames on the stack: the callback is bound to
 * the caller's context and origin, so that the queries it sends are the caller's.
 */
function bindPoolCallbacks(pool: unknown, method: string): () => void {
  const prototype = (pool as { prototype?: unknown } | null | undefined)?.prototype;
  if (typeof prototype !== 'object' || prototype === null || boundPools.has(prototype)) return () => {};
  boundPools.add(prototype);
  const restore = wrapMethod(prototype as Record<string, unknown>, method, (original) =>
    function (this: unknown, ...args: unknown[]) {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function' && requestContext.getStore() !== undefined) {
        const origin = captureOrigin(STACK_DEPTH, poolReach);
        // An AsyncResource of its own rather than AsyncResource.bind, which on Node 20 also defines
        // deprecation accessors on every bound function (about 10 µs a call).
        const resource = new AsyncResource('loupe.pool.callback');
        args[last] = (...results: unknown[]) => resource.runInAsyncScope(() => withOrigin(origin, () => (callback as Method)(...results)));
      }
      return original.apply(this, args);
    },
  );
  return () => {
    boundPools.delete(prototype);
    restore();
  };
}

/** Captures mysql2's queries and executes through its tracing channels. */
function captureMysql2(): () => void {
  const calls = new WeakMap<object, OpenCall<DbQueryEntry>>();
  const settle = (call: OpenCall<DbQueryEntry>, context: Mysql2Context): void => {
    call.entry.rows = rowsOf(context.result);
  };
  const open = (context: Mysql2Context): OpenCall<DbQueryEntry> | null => openCall('mysql2', AppIoKinds.DB, 'db', spanName(context.query), dbEntry('mysql2', context.query, context.values, context.database));
  const stops = [
    subscribeTracing(tracingChannel<unknown, Mysql2Context>('mysql2:query'), calls, open, settle),
    subscribeTracing(tracingChannel<unknown, Mysql2Context>('mysql2:execute'), calls, open, settle),
  ];
  // Every copy's Pool (mysql2/promise's pool wraps one of them): its queued callers' context.
  stops.push(onLibraryLoad('mysql2', 'lib/pool.js', (Pool) => bindPoolCallbacks(Pool, 'getConnection')));
  return () => stops.forEach((stop) => stop());
}

interface PgQueryConfig {
  readonly text?: unknown;
  readonly values?: unknown;
  readonly callback?: unknown;
  readonly submit?: unknown;
  once?(event: string, listener: (value: unknown) => void): unknown;
}

/**
 * Wraps `query` of one copy of pg's `Client.prototype`, which `Pool` and the ORMs and query
 * builders on pg (Drizzle, Knex, TypeORM, Kysely) all go through: pg publishes no diagnostics
 * channel yet (brianc/node-postgres PR #3650). Every form of `query` keeps its own result; the
 * wrapper only watches it settle.
 */
function captureClientQueries(Client: object): () => void {
  const prototype = (Client as { prototype?: unknown }).prototype;
  if (typeof prototype !== 'object' || prototype === null) return () => {};
  return wrapMethod(prototype as Record<string, unknown>, 'query', (original) =>
    function (this: unknown, ...args: unknown[]) {
      const [first, second] = args;
      const config = typeof first === 'object' && first !== null ? (first as PgQueryConfig) : null;
      const sql = typeof first === 'string' ? first : config?.text;
      if (typeof sql !== 'string') return original.apply(this, args);
      const params = Array.isArray(second) ? second : config?.values;
      const database = (this as { database?: unknown }).database;
      const call = openCall('pg', AppIoKinds.DB, 'db', spanName(sql), dbEntry('pg', sql, params, typeof database === 'string' ? database : ''));
      if (call === null) return original.apply(this, args);
      const done = (error: unknown, result?: unknown): void => {
        if (error === null || error === undefined) call.entry.rows = rowsOf(result);
        closeCall(call, error ?? undefined);
      };
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as Method;
        args[last] = function (this: unknown, error: unknown, result: unknown) {
          done(error, result);
          return callback.call(this, error, result);
        };
        return original.apply(this, args);
      }
      const result = original.apply(this, args);
      if (typeof (result as Promise<unknown> | null)?.then === 'function') {
        (result as Promise<unknown>).then((value) => done(null, value), (error: unknown) => done(error));
      } else if (config !== null && typeof config.submit === 'function' && typeof config.once === 'function') {
        // A Submittable (a cursor, a query stream): it ends with `end` or `error`.
        config.once('end', (value) => done(null, value));
        config.once('error', (error) => done(error));
      }
      return result;
    },
  );
}

/**
 * The class among `Class` and its ancestors whose prototype defines `name` itself: pg's `Pool`
 * only binds pg-pool's `Pool` to its Client, and an application may use pg-pool's directly
 * (`new Pool()` of `pg-pool`), whose queued callers would otherwise run in the context of the
 * request that released the connection. Several copies of pg may share one pg-pool: each wraps it.
 */
function definerOf(Class: unknown, name: string): unknown {
  for (let current = Class; typeof current === 'function'; current = Object.getPrototypeOf(current)) {
    const prototype = (current as { prototype?: unknown }).prototype;
    if (typeof prototype === 'object' && prototype !== null && Object.hasOwn(prototype, name)) return current;
  }
  return Class;
}

/**
 * Captures the queries of every copy of pg the process loads, before Loupe started or after,
 * through `require` or `import`, from wherever it lies: an application and the ORM it uses may
 * each have their own (an ORM's adapter pinning another pg in its own node_modules). Each copy's
 * `Pool` (pg-pool's, bound to that copy's Client) gets its queued callers' context bound: watched
 * in pg's `lib/index.js` rather than pg-pool's `index.js`, a name so common that checking the
 * package of every file so named cost 20 ms at start in an application of a thousand modules.
 */
function capturePg(): () => void {
  const stops = [
    onLibraryLoad('pg', 'lib/client.js', captureClientQueries),
    onLibraryLoad('pg', 'lib/index.js', (pg) => bindPoolCallbacks(definerOf((pg as { Pool?: unknown }).Pool, 'connect'), 'connect')),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Captures SQL through the drivers named (`mysql2`, `pg`); answers how to stop. */
export function captureSql(drivers: { readonly mysql2: boolean; readonly pg: boolean }): () => void {
  const stops = [...(drivers.mysql2 ? [captureMysql2()] : []), ...(drivers.pg ? [capturePg()] : [])];
  return () => stops.forEach((stop) => stop());
}
