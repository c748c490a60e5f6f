'use strict';
/*
 * Loads .ts files as `-r ts-node/register/transpile-only` does (ts-node's own compiler with the
 * repository's tsconfig.json, its source-map-support for stack traces), but keeps what it
 * compiled in .cache/typescript/: every test worker and every server or CLI the tests start
 * loads the same sources, and compiling them again cost each process 4–8 s of CPU (most of the
 * suite's time). A cached file needs no TypeScript loaded at all.
 *
 * The key is the file's path and content, TypeScript's and ts-node's versions, tsconfig.json and
 * this file: a changed source, setting or compiler is another key, so what is loaded is always
 * what the sources say now. `make clean` deletes the cache.
 *
 * ava's workers load it (ava.config.mjs, "require"); test/helpers/spawn-server.ts and
 * test/cli/run-loupe.ts start the demo and the CLI with `node -r` it.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.cache', 'typescript');
const TSCONFIG = path.join(ROOT, 'tsconfig.json');
const fromRoot = (id) => require.resolve(id, { paths: [ROOT] });

const salt = crypto
  .createHash('sha256')
  .update(fs.readFileSync(__filename))
  .update(fs.readFileSync(TSCONFIG))
  .update(fs.readFileSync(fromRoot('typescript/package.json')))
  .update(fs.readFileSync(fromRoot('ts-node/package.json')))
  .digest('hex');

/** What each .ts file compiled to in this process, for the stack traces' source maps. */
const outputs = new Map();

let service = null;

/** ts-node's transpile-only compiler with the repository's tsconfig.json, made on the first cache miss. */
function transpile(source, fileName) {
  service ??= require(fromRoot('ts-node')).create({ transpileOnly: true, project: TSCONFIG });
  return service.compile(source, fileName);
}

function compiled(source, fileName) {
  const key = crypto.createHash('sha256').update(salt).update('\0').update(fileName).update('\0').update(source).digest('hex');
  const file = path.join(CACHE, key.slice(0, 2), `${key}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  const code = transpile(source, fileName);
  // Written aside and renamed: another process reading the same key sees all of it or nothing.
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, code);
  fs.renameSync(temporary, file);
  return code;
}

/** What the .ts file `fileName` compiles to, from the cache when it is there. */
function compiledFile(fileName) {
  let source = fs.readFileSync(fileName, 'utf8');
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  return compiled(source, fileName);
}

module.exports = { ROOT, compiledFile };

require.extensions['.ts'] = function loadTypeScript(module, fileName) {
  const code = compiledFile(fileName);
  outputs.set(fileName, code);
  module._compile(code, fileName);
};

// ts-node's own source-map-support, set up as ts-node sets it up: stack traces name the .ts lines.
require(require.resolve('@cspotcode/source-map-support', { paths: [path.dirname(fromRoot('ts-node'))] })).install({
  environment: 'node',
  retrieveFile: (file) => outputs.get(file) ?? '',
  redirectConflictingLibrary: true,
});
