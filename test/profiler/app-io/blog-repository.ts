import type pg from 'pg';

// An N+1 built the usual way: a loop in one function calling a repository's function, which runs
// the query. The tests read the lines of the markers below: keep each on the line it is on.

/** The posts of one author, counted: one query. */
export async function postCount(pool: pg.Pool, table: string, authorId: number): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE author_id = $1`, [authorId]); // post-count-query
  return Number(rows[0]?.n ?? 0);
}

/** Each author's count of posts, one query per author: the loop to batch. */
export async function authorsWithCounts(pool: pg.Pool, table: string, authorIds: readonly number[]): Promise<number[]> {
  const counts: number[] = [];
  for (const id of authorIds) counts.push(await postCount(pool, table, id)); // authors-loop
  return counts;
}
