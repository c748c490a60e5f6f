#!/usr/bin/env node
'use strict';
// Run after install (make install, the Dockerfile): fails, saying what this system lacks, unless
// uWebSockets.js loads its native binary for the running Node. It runs the server's own check
// (src/server/load-uws.ts): from the sources through ts-node where the dev dependencies are
// installed (make install runs it before any build), else from the build (the Dockerfile runs it
// after `npm prune --omit=dev`).

const path = require('node:path');

const ROOT = path.join(__dirname, '..');

function hasTsNode() {
  try {
    require.resolve('ts-node', { paths: [ROOT] });
    return true;
  } catch {
    return false;
  }
}

function loadChecker() {
  if (!hasTsNode()) return require(path.join(ROOT, 'dist', 'src', 'server', 'load-uws'));
  require(require.resolve('ts-node', { paths: [ROOT] })).register({ transpileOnly: true, project: path.join(ROOT, 'tsconfig.json') });
  return require(path.join(ROOT, 'src', 'server', 'load-uws'));
}

function glibc() {
  const header = process.report.getReport().header;
  return header.glibcVersionRuntime === undefined ? '' : `, glibc ${header.glibcVersionRuntime}`;
}

const where = `Node ${process.versions.node} (ABI ${process.versions.modules}), ${process.platform}-${process.arch}${glibc()}`;

try {
  loadChecker().loadNativeUws();
} catch (error) {
  process.stderr.write(`check-native: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
process.stdout.write(`uWebSockets.js: native binary loaded (${where})\n`);
