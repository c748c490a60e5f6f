// An application written as an ES module: `import postgres from 'postgres'` loads postgres.js'
// ES module build (its `src/`), a Query class other than the CommonJS build's.
import postgres from 'postgres';

/** A postgres.js `sql` of the ES module build. */
export function connect(options) {
  return postgres(options);
}

/** One tagged-template query, made on this file's line. */
export async function nameOf(sql, table, id) {
  return sql`SELECT name FROM ${sql(table)} WHERE id = ${id}`; // esm-query-line
}
