'use strict';
/*
 * Loads .ts files as `-r ts-node/register/transpile-only` does (TypeScript's transpileModule with
 * the repository's tsconfig.json, ts-node's settings, its source-map-support for stack traces),
 * but keeps what it compiled in .cache/typescript/: every test worker and every server or CLI the
 * tests start loads the same sources, and compiling them again cost each process 4–8 s of CPU
 * (most of the suite's time). A cached file needs no TypeScript loaded at all.
 *
 * The key is the file's path and content, TypeScript's version, tsconfig.json and this file: a
 * changed source, setting or compiler is another key, so what is loaded is always what the
 * sources say now. `make clean` deletes the cache.
 *
 * ava's workers load it (package.json, "ava.require"); test/helpers/spawn-server.ts and
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
  .digest('hex');

/** What each .ts file compiled to in this process, for the stack traces' source maps. */
const outputs = new Map();

let transpile = null;

/** ts-node's transpile-only compilation (its fixConfig settings), made on the first cache miss. */
function transpiler() {
  const ts = require(fromRoot('typescript'));
  const read = ts.readConfigFile(TSCONFIG, ts.sys.readFile);
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, TSCONFIG);
  const compilerOptions = { ...options, sourceMap: true, inlineSourceMap: false, inlineSources: true, declaration: false, declarationMap: false, noEmit: false, outDir: '.ts-node' };
  for (const name of ['out', 'outFile', 'composite', 'declarationDir', 'emitDeclarationOnly', 'tsBuildInfoFile', 'incremental']) delete compilerOptions[name];
  return (source, fileName) => {
    const result = ts.transpileModule(source, { fileName, compilerOptions, reportDiagnostics: true });
    const errors = (result.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) throw new Error(`⨯ Unable to compile TypeScript:\n${ts.formatDiagnostics(errors, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' })}`);
    // As ts-node: the map names the .ts file itself, inline, in place of tsc's `//# sourceMappingURL=x.js.map`.
    const map = JSON.parse(result.sourceMapText);
    map.file = fileName;
    map.sources = [fileName];
    delete map.sourceRoot;
    const code = result.outputText.replace(/\n\/\/# sourceMappingURL=[^\n]*$/, '');
    return `${code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map), 'utf8').toString('base64')}`;
  };
}

function compiled(source, fileName) {
  const key = crypto.createHash('sha256').update(salt).update('\0').update(fileName).update('\0').update(source).digest('hex');
  const file = path.join(CACHE, key.slice(0, 2), `${key}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  transpile ??= transpiler();
  const code = transpile(source, fileName);
  // Written aside and renamed: another process reading the same key sees all of it or nothing.
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, code);
  fs.renameSync(temporary, file);
  return code;
}

require.extensions['.ts'] = function loadTypeScript(module, fileName) {
  let source = fs.readFileSync(fileName, 'utf8');
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const code = compiled(source, fileName);
  outputs.set(fileName, code);
  module._compile(code, fileName);
};

// ts-node's own source-map-support, set up as ts-node sets it up: stack traces name the .ts lines.
require(require.resolve('@cspotcode/source-map-support', { paths: [path.dirname(fromRoot('ts-node'))] })).install({
  environment: 'node',
  retrieveFile: (file) => outputs.get(file) ?? '',
  redirectConflictingLibrary: true,
});
