import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Loupe's name on the npm registry (`loupe` there is another package). */
const PACKAGE_NAME = 'loupe-kernel';

/**
 * The version in Loupe's package.json, found by walking up from `from`: the sources
 * (src/cli/), the build (dist/src/cli/) and an installed package sit at different depths.
 */
export function packageVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    }
    if (path.dirname(dir) === dir) throw new Error(`No package.json of ${PACKAGE_NAME} above ${from}.`);
  }
}
