'use strict';
/*
 * `npx loupe-kernel create <directory>`: writes a new application from create/template/ (its
 * package.json made here, so that it depends on this very version of Loupe), as
 * `npm create hono@latest` does. Plain JavaScript: it runs from the published package, unbuilt.
 */
const fs = require('node:fs');
const path = require('node:path');

const TEMPLATE = path.join(__dirname, 'template');
const MANIFEST = require('../package.json');
/** Files copied as they are, but for the application's name; npm drops a packed `.gitignore`, hence `gitignore`. */
const FILES = [
  ['app.ts', 'app.ts'],
  ['tsconfig.json', 'tsconfig.json'],
  ['docker-compose.yml', 'docker-compose.yml'],
  ['README.md', 'README.md'],
  ['gitignore', '.gitignore'],
];
const USAGE = 'Usage: npx loupe-kernel create <directory>\n';

/** A valid npm package name made of the directory's name: lower case, other characters as `-`. */
function packageName(directory) {
  const name = path.basename(path.resolve(directory)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
  return name === '' ? 'loupe-app' : name;
}

/** Names npm refuses whatever their spelling (validate-npm-package-name's blacklist). */
const REFUSED_NAMES = new Set(['node_modules', 'favicon.ico']);
const MAX_NAME_LENGTH = 214;

/**
 * Why npm would refuse `name` as a package name, or `null`: npm's rules (validate-npm-package-name,
 * for new packages) are lower case, no leading `.` or `_`, at most 214 characters, URL-safe, and
 * not one of REFUSED_NAMES. packageName already makes most names fit; these are the ones it cannot.
 */
function nameProblem(name) {
  if (REFUSED_NAMES.has(name)) return `"${name}" is a name npm refuses for a package`;
  if (name.length > MAX_NAME_LENGTH) return `a package name is ${MAX_NAME_LENGTH} characters at most, and this one has ${name.length}`;
  if (name !== name.toLowerCase() || /^[._]/.test(name) || encodeURIComponent(name) !== name) return `"${name}" is not a name npm accepts for a package`;
  return null;
}

/** Characters a POSIX shell reads as themselves in a word; a word of others is quoted. */
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * `word` as a POSIX shell reads it back: as it is when it is plain, else in single quotes, inside
 * which nothing is special but the quote itself, written `'\''` (POSIX.1-2017 XCU 2.2.2).
 */
function shellQuote(word) {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The new application's package.json: Loupe at this version, TypeScript and Node's types as Loupe pins them. */
function manifestOf(name) {
  const dev = MANIFEST.devDependencies;
  return {
    name,
    version: '0.1.0',
    private: true,
    scripts: {
      build: 'tsc',
      start: 'tsc && node --enable-source-maps dist/app.js',
    },
    dependencies: { [MANIFEST.name]: MANIFEST.version },
    devDependencies: { '@types/node': dev['@types/node'], typescript: dev.typescript },
  };
}

function isEmptyOrMissing(directory) {
  try {
    return fs.readdirSync(directory).length === 0;
  } catch (error) {
    if (error.code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * Writes the application into `args[0]` (relative to `io.cwd`) and tells what to run next.
 * Returns the exit code: 2 for a usage error, 1 when the directory is not empty or its name
 * cannot be a package's.
 */
function createApp(args, io) {
  if (args.length !== 1 || args[0].startsWith('-')) {
    io.err.write(USAGE);
    return 2;
  }
  const target = path.resolve(io.cwd, args[0]);
  const name = packageName(target);
  const problem = nameProblem(name);
  if (problem !== null) {
    io.err.write(`${target} cannot hold an application: its package.json is named after the directory, and ${problem}. Give another directory name.\n`);
    return 1;
  }
  if (!isEmptyOrMissing(target)) {
    io.err.write(`${target} is not empty: give a new directory.\n`);
    return 1;
  }
  fs.mkdirSync(target, { recursive: true });
  fs.writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(manifestOf(name), null, 2)}\n`);
  for (const [from, to] of FILES) {
    const text = fs.readFileSync(path.join(TEMPLATE, from), 'utf8').replaceAll('__APP_NAME__', name);
    fs.writeFileSync(path.join(target, to), text);
  }
  const relative = path.relative(io.cwd, target) || '.';
  io.out.write(
    `Created ${name} in ${target}.\n\n` +
      // Pasted into a shell: a directory named `a;touch x` must not run `touch`.
      `  cd ${shellQuote(relative)}\n` +
      '  docker compose up -d redis   # or any Redis on 127.0.0.1:6379\n' +
      '  npm install\n' +
      '  npm start\n\n' +
      'Then open http://127.0.0.1:8000/ and the profiler at http://127.0.0.1:8000/_profiler/\n',
  );
  return 0;
}

module.exports = { createApp, packageName, shellQuote };
