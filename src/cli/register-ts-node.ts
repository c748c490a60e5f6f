import path from 'node:path';
import { CliError } from './cli-error';

interface TsNode {
  register(options: { transpileOnly: boolean }): unknown;
}

/**
 * Where the ts-node that loads the TypeScript module `modulePath` is: the application's, found
 * from `directory` (the module's own). Loupe's CLI ships without ts-node: an application that has
 * none is told, in one line, to pass its compiled JavaScript instead.
 */
export function resolveTsNode(modulePath: string, directory: string): string {
  try {
    return require.resolve('ts-node', { paths: [directory] });
  } catch (error) {
    // The starter's tsconfig.json compiles app.ts to dist/app.js, src/x.ts to dist/src/x.js.
    const compiled = path.isAbsolute(modulePath) ? 'dist/app.js' : path.join('dist', modulePath.replace(/\.ts$/, '.js'));
    throw new CliError(1, `Cannot load "${modulePath}": ts-node is not installed. Build first and pass the compiled module (\`npm run build\`, then --app ${compiled}), or \`npm install --save-dev ts-node\`.`, { cause: error });
  }
}

/** Lets `require` load `modulePath`, a TypeScript module, unless a TypeScript loader is registered already. */
export function registerTsNode(modulePath: string, directory: string): void {
  if (require.extensions['.ts'] !== undefined) return;
  (require(resolveTsNode(modulePath, directory)) as TsNode).register({ transpileOnly: true });
}
