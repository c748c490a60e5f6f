import { DATABASE_COLLECTOR } from '../collect/collectors/app-io-collectors';
import { normalizeSql } from './sql-text';

/** The query shapes (normalized SQL, as analyzeQueries groups them) one profile ran and another did not. */
export interface QueryShapeChanges {
  /** Shapes the later profile ran and the earlier did not, in the order the later ran them first. */
  readonly added: readonly string[];
  /** Shapes the earlier profile ran and the later did not, in the order the earlier ran them first. */
  readonly removed: readonly string[];
}

/** What the shapes are read from: a profile's collectors' entries. */
interface ProfileEntries {
  readonly collectors: Readonly<Record<string, object>>;
}

/**
 * The query shapes of a profile, each once, in the order first run; `null` when the profile has
 * no Database entry (stored before Loupe captured SQL, or with the collector left out): then
 * nothing can be said of which shapes it ran, as opposed to an entry with no query.
 */
export function queryShapesOf(profile: ProfileEntries): readonly string[] | null {
  const data: unknown = Object.hasOwn(profile.collectors, DATABASE_COLLECTOR) ? profile.collectors[DATABASE_COLLECTOR] : undefined;
  if (typeof data !== 'object' || data === null || !('queries' in data) || !Array.isArray(data.queries)) return null;
  const shapes = new Set<string>();
  for (const query of data.queries as readonly unknown[]) {
    if (typeof query === 'object' && query !== null && 'sql' in query && typeof query.sql === 'string') shapes.add(normalizeSql(query.sql));
  }
  return [...shapes];
}

/**
 * The shapes `after` ran that `before` did not, and the other way round (Symfony's and Telescope's
 * users diff query lists by hand to see what a change added); `null` when either profile has no
 * Database entry.
 */
export function queryShapeChanges(before: ProfileEntries, after: ProfileEntries): QueryShapeChanges | null {
  const [earlier, later] = [queryShapesOf(before), queryShapesOf(after)];
  if (earlier === null || later === null) return null;
  const [had, has] = [new Set(earlier), new Set(later)];
  return { added: later.filter((shape) => !had.has(shape)), removed: earlier.filter((shape) => !has.has(shape)) };
}
