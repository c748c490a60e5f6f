#!/usr/bin/env node
'use strict';
/*
 * `npx loupe-kernel create my-app` writes a new application (create/create-app.js); any other
 * command is the `loupe` CLI's (`npx loupe-kernel profiler:list` is `npx loupe profiler:list`).
 * npx runs the binary named after the package, hence a second name for the same CLI.
 */
if (process.argv[2] === 'create') {
  const { createApp } = require('../create/create-app');
  process.exitCode = createApp(process.argv.slice(3), { out: process.stdout, err: process.stderr, cwd: process.cwd() });
} else {
  require('./loupe');
}
