#!/usr/bin/env node
'use strict';
/*
 * `npx loupe …`: runs the compiled CLI after `npm run build`, else the TypeScript sources through
 * ts-node, so that it works in a fresh checkout and in the tests without a build.
 * LOUPE_CLI_FROM_SOURCE=1 forces the sources even when dist/ exists: the tests set it, so that a
 * stale build never answers for the code under test. A process started with a TypeScript loader
 * already (`node -r ts-node/register …`, the tests' cached one) keeps it.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const compiled = path.join(root, 'dist', 'src', 'cli', 'main.js');

function loadCli() {
  if (process.env.LOUPE_CLI_FROM_SOURCE !== '1' && fs.existsSync(compiled)) return require(compiled);
  if (require.extensions['.ts'] !== undefined) return require(path.join(root, 'src', 'cli', 'main.ts'));
  let tsNode;
  try {
    tsNode = require('ts-node');
  } catch {
    process.stderr.write('loupe: no build in dist/ and ts-node is not installed: run `npm run build` (or `npm ci`) first.\n');
    process.exit(1);
  }
  tsNode.register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
  return require(path.join(root, 'src', 'cli', 'main.ts'));
}

loadCli()
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
