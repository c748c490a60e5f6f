import { dirname } from 'node:path';

/** A driver the application does not have, said in words: EXPLAIN connects with the application's own. */
export class DriverNotInstalledError extends Error {
  constructor(readonly driver: string, cause: unknown) {
    super(`The ${driver} driver is not installed in the application (looked for from ${process.cwd()}): EXPLAIN connects with the application's own driver, as its queries did; npm install ${driver} there.`, { cause });
  }

  override get name(): string {
    return this.constructor.name;
  }
}

/**
 * The module `name` (`pg`, `mysql2/promise`) as the application resolves it: from its working
 * directory, then from its main module. Loaded only when an EXPLAIN is asked for, so that Loupe
 * depends on no database driver; `DriverNotInstalledError` when the application has none.
 */
export function loadAppDriver(name: string): unknown {
  const paths = [process.cwd(), ...(require.main === undefined ? [] : [dirname(require.main.filename)])];
  let resolved: string;
  try {
    resolved = require.resolve(name, { paths });
  } catch (error) {
    throw new DriverNotInstalledError(name.split('/')[0] ?? name, error);
  }
  return require(resolved) as unknown;
}
