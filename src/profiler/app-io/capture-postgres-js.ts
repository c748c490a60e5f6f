import { dirname, join } from 'node:path';
import { requestContext, type CurrentRequest } from '../../kernel/request-context';
import { AppIoKinds, type DbQueryEntry } from './app-io-entries';
import { captureOrigin, STACK_DEPTH, StackReach, type CallOrigin } from './capture-origin';
import { captureCursors } from './capture-postgres-js-cursors';
import { spanName } from './capture-sql';
import { onLibraryLoad } from './on-library-load';
import { CAPTURED_IO, closeCall, openCall, type OpenCall } from './open-call';

/** The driver's name in a query's entry and in PROFILER_CAPTURE, as npm names it. */
const DRIVER = 'postgres';

/** Where a query the application made was: its request and its line, kept from the query's creation to its sending. */
interface Pending {
  readonly request: CurrentRequest;
  readonly origin: CallOrigin;
}

const PENDING = Symbol('loupe.postgres.pending');
const CALL = Symbol('loupe.postgres.call');

/** What of postgres.js' `Query` (3.x) the capture reads: a Promise whose text and parameters its connection sets when it sends it. */
interface PostgresQuery {
  string?: unknown;
  [PENDING]?: Pending | undefined;
  [CALL]?: OpenCall<DbQueryEntry>;
}

/** A copy of postgres.js' `Query` class, by its prototype. */
type QueryPrototype = Record<PropertyKey, unknown>;

/** Where the application resolves its packages from: its working directory, its main module, the script it started. */
function applicationDirectories(): string[] {
  const script = process.argv[1];
  return [process.cwd(), ...(require.main === undefined ? [] : [dirname(require.main.filename)]), ...(script === undefined ? [] : [dirname(script)])];
}

/**
 * The `Query` class of the ES module build (`src/`) of the postgres.js the application resolves.
 * An `import` of it never passes through the CommonJS loader onLibraryLoad watches; but Node
 * (≥ 20.19, 22.12) loads an ES module with `require` into the same module cache `import` uses, so
 * the prototype patched is the one the application's `import postgres from 'postgres'` gets.
 */
function esmQueryPrototype(): QueryPrototype | null {
  let main: string;
  try {
    main = require.resolve('postgres', { paths: applicationDirectories() });
  } catch {
    return null;
  }
  // The package exports only its entry point (`cjs/src/index.js` to require): its own files are reached by path.
  try {
    return (require(join(dirname(main), '..', '..', 'src', 'query.js')) as { Query?: { prototype?: QueryPrototype } }).Query?.prototype ?? null;
  } catch {
    // A copy that ships no ES module build, or a Node that cannot `require` an ES module.
    return null;
  }
}

/** Rows a result holds: its `count` (rows returned or changed), summed over the results of several statements. */
function rowsOf(result: unknown): number | null {
  const count = (result as { count?: unknown } | null)?.count;
  if (typeof count === 'number') return count;
  if (!Array.isArray(result) || result.length === 0) return null;
  let rows: number | null = null;
  for (const each of result as unknown[]) {
    const part = (each as { count?: unknown } | null)?.count;
    if (typeof part === 'number') rows = (rows ?? 0) + part;
  }
  return rows;
}

function settled(this: OpenCall<DbQueryEntry>, result: unknown): void {
  // A cursor's rows were counted as it was read: its result holds its last batch's.
  this.entry.rows ??= rowsOf(result);
  closeCall(this);
}

function failed(this: OpenCall<DbQueryEntry>, error: unknown): void {
  closeCall(this, error);
}

/** Opens the query's call in the request that made it, once its connection has set its text and parameters. */
function openQuery(query: PostgresQuery, pending: Pending, parameters: unknown): OpenCall<DbQueryEntry> | null {
  const sql = typeof query.string === 'string' ? query.string : '';
  // Copied: the connection serializes the array in place as it binds it.
  const params = Array.isArray(parameters) ? [...(parameters as unknown[])] : [];
  const build = (start: number, origin: CallOrigin): DbQueryEntry => ({ start, duration: null, error: null, origin, driver: DRIVER, sql, params, database: '', rows: null });
  // No stack is read here: the origin was taken where the application made the query.
  return openCall(DRIVER, AppIoKinds.DB, 'db', spanName(sql), build, pending.origin);
}

/**
 * Traps the first assignment of `name` on every query: `trap` runs, then the query gets the
 * property as its own, so that reads and later writes cost what they cost without the trap.
 */
function trapAssignment(prototype: QueryPrototype, name: string, trap: (query: PostgresQuery, value: unknown) => void): () => void {
  if (Object.getOwnPropertyDescriptor(prototype, name) !== undefined) return () => {};
  Object.defineProperty(prototype, name, {
    configurable: true,
    get: () => undefined,
    set(this: PostgresQuery, value: unknown) {
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      trap(this, value);
    },
  });
  return () => {
    delete prototype[name];
  };
}

/** How deep the application's frame lies where a query is made. */
const queryReach = new StackReach();

/**
 * A query is made (`new Query`, from `sql\`…\``, `sql.unsafe`, a transaction's `begin`) where the
 * application's line is on the stack, but runs later, on `await`, from a microtask that holds none
 * of it, and is sent when a connection takes it, maybe in another request's socket callback. So
 * its request and origin are kept where it is made (its `canceller` is set in the constructor; a
 * query postgres.js makes for itself, fetching types on connect, has none), and its call opens
 * when the connection has built its text (`parameters` is set then): a query nested in another as
 * a fragment, or never awaited, is never sent and records nothing.
 */
function capturePrototype(prototype: QueryPrototype): () => void {
  const restoreCreation = trapAssignment(prototype, 'canceller', (query, canceller) => {
    if (typeof canceller !== 'function') return;
    const request = requestContext.getStore();
    if (request === undefined || request.attributes.get(CAPTURED_IO)?.has(DRIVER) !== true) return;
    query[PENDING] = { request, origin: captureOrigin(STACK_DEPTH, queryReach) };
  });
  const restoreSending = trapAssignment(prototype, 'parameters', (query, parameters) => {
    const pending = query[PENDING];
    if (pending === undefined) return;
    // Once: a query the server asks to prepare again is built a second time.
    query[PENDING] = undefined;
    const call = requestContext.getStore() === pending.request ? openQuery(query, pending, parameters) : requestContext.run(pending.request, openQuery, query, pending, parameters);
    if (call === null) return;
    query[CALL] = call;
    Promise.prototype.then.call(query, settled.bind(call), failed.bind(call));
  });
  const restoreCursor = captureCursors(prototype, {
    isCaptured: (query) => (query as PostgresQuery)[PENDING] !== undefined,
    callOf: (query) => (query as PostgresQuery)[CALL],
  });
  return () => {
    restoreCreation();
    restoreSending();
    restoreCursor();
  };
}

/**
 * Captures the queries of postgres.js (`postgres`, 3.x) — every copy of its CommonJS build, and
 * the ES module build of the copy the application resolves — and so of the ORMs on it (Drizzle's
 * `postgres-js` driver): their text as sent (`$1`, `$2`…), parameters, rows,
 * error and origin. postgres.js publishes no diagnostics channel; its `Query` prototype is the one
 * place every query of every `sql` instance, transaction and reserved connection goes through.
 */
export function capturePostgresJs(): () => void {
  // Every copy's CommonJS build, required before Loupe started or after, wherever it lies.
  const stops = [onLibraryLoad(DRIVER, 'cjs/src/query.js', (query) => capturePrototype((query as { Query: { prototype: QueryPrototype } }).Query.prototype))];
  const esm = esmQueryPrototype();
  if (esm !== null) stops.push(capturePrototype(esm));
  return () => stops.forEach((stop) => stop());
}
