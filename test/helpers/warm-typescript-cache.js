'use strict';
/*
 * Compiles every TypeScript source of the repository into the cache that the test workers and the
 * servers and CLIs they start load from (register-typescript.js), before ava starts them: on a
 * fresh clone the first workers would otherwise each compile the same sources at once, side by
 * side. Files already cached are only read. A file that does not compile is left for the test
 * that loads it to report.
 *
 * `npm test` runs it before ava; `node test/helpers/warm-typescript-cache.js` alone fills the cache.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, compiledFile } = require('./register-typescript.js');

const FOLDERS = ['src', 'machines', 'demo', 'test', 'bench', 'scripts', 'create'];

function* typeScriptFiles(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(file);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield file;
  }
}

const started = process.hrtime.bigint();
let count = 0;
for (const folder of FOLDERS) {
  const root = path.join(fs.realpathSync(ROOT), folder);
  if (!fs.existsSync(root)) continue;
  for (const file of typeScriptFiles(root)) {
    try {
      compiledFile(file);
      count += 1;
    } catch {
      // Reported by the test that loads it, with the test's own context.
    }
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`TypeScript: ${count} files compiled or found in .cache/typescript in ${seconds.toFixed(1)} s`);
