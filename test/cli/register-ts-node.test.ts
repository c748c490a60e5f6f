import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../../src/cli/cli-error';
import { resolveTsNode } from '../../src/cli/register-ts-node';

const ROOT = path.resolve(__dirname, '..', '..');

test('a .ts module of an application without ts-node is refused in one line that says to build and pass the compiled .js, or to install ts-node', (t) => {
  const app = mkdtempSync(path.join(os.tmpdir(), 'loupe-no-ts-node-'));
  try {
    const error = t.throws(() => resolveTsNode('app.ts', app), { instanceOf: CliError });
    t.is(error?.exitCode, 1);
    t.is(error?.message, 'Cannot load "app.ts": ts-node is not installed. Build first and pass the compiled module (`npm run build`, then --app dist/app.js), or `npm install --save-dev ts-node`.');
    t.regex(t.throws(() => resolveTsNode('src/app.ts', app))?.message ?? '', /--app dist\/src\/app\.js\)/);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});

test("ts-node is the application's own, found from the module's directory", (t) => {
  t.is(resolveTsNode('demo/demo-app.ts', path.join(ROOT, 'demo')), require.resolve('ts-node', { paths: [ROOT] }));
});
