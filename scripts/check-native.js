#!/usr/bin/env node
'use strict';
// Run after install (make install, the Dockerfile): fails unless uWebSockets.js loads its native
// binary. The installed package silently falls back to a slow pure-JS imitation when the binary
// does not load; the server refuses to start on it (src/server/load-uws.ts, same test as here),
// and this says so at install time instead.

function glibcVersion() {
  const header = process.report && process.report.getReport().header;
  return (header && header.glibcVersionRuntime) || 'none (not glibc)';
}

const where =
  `Node ${process.versions.node} (ABI ${process.versions.modules}), ${process.platform}-${process.arch}, ` +
  `glibc ${glibcVersion()}`;

function fail(reason) {
  process.stderr.write(
    `check-native: ${reason}\n` +
      `  on ${where}\n` +
      '  Loupe needs the native uWebSockets.js binary: use Node 20 on Linux x64 (or arm64) with glibc >= 2.31\n' +
      '  (not Alpine/musl), unset UWS_USE_FALLBACK, then reinstall with `rm -rf node_modules && make install`.\n',
  );
  process.exit(1);
}

let uws;
try {
  uws = require('uWebSockets.js');
} catch (error) {
  fail(`uWebSockets.js is not installed or cannot be loaded (${String(error && error.message).split('\n')[0]}).`);
}

const native = typeof uws.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(uws.App));
if (!native) fail('uWebSockets.js loaded its pure-JS fallback instead of the native binary.');

process.stdout.write(`uWebSockets.js: native binary loaded (${where})\n`);
