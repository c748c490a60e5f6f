'use strict';
/*
 * `npx loupe-kernel create <directory>`: writes a new application from create/template/ (its
 * package.json made here, so that it depends on this very version of Loupe), as
 * `npm create hono@latest` does. Plain JavaScript: it runs from the published package, unbuilt.
 */
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

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
const USAGE =
  'Usage: npx loupe-kernel create <directory> [--from <tarball|directory>]\n\n' +
  '  --from   depend on Loupe through a file: path to this tarball (`npm pack`) or checkout\n' +
  '           instead of the npm registry\n';
/** Where this copy of Loupe is: a checkout, an unpacked tarball, or an installed package. */
const PACKAGE_DIRECTORY = path.resolve(__dirname, '..');

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

/**
 * How the application depends on Loupe: through a `file:` path, relative to the application as
 * `npm install <path>` writes it, to `from` when given, else to this copy of Loupe when it is not
 * an installed package (a checkout); else this version from the registry.
 */
function loupeSpec(target, from, packageDirectory) {
  const source = from ?? (packageDirectory.split(path.sep).includes('node_modules') ? null : packageDirectory);
  if (source === null) return MANIFEST.version;
  return `file:${path.relative(target, source).split(path.sep).join('/') || '.'}`;
}

/**
 * The new application's package.json: Loupe as `loupe` says, TypeScript, Node's types and ts-node
 * as Loupe pins them. `dev` restarts on every change of a file the application loads: Node's own
 * `--watch` with ts-node's transpile-only hook, one process and no build step in between
 * (`tsc --watch` beside `node --watch dist/app.js` takes two processes and a shell to run them).
 */
function manifestOf(name, loupe) {
  const dev = MANIFEST.devDependencies;
  return {
    name,
    version: '0.1.0',
    private: true,
    scripts: {
      build: 'tsc',
      start: 'tsc && node --enable-source-maps dist/app.js',
      dev: 'node --watch --require ts-node/register/transpile-only app.ts',
    },
    dependencies: { [MANIFEST.name]: loupe },
    devDependencies: { '@types/node': dev['@types/node'], 'ts-node': dev['ts-node'], typescript: dev.typescript },
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

/** The directory and `--from` of the arguments, or `null` when they are not one directory and at most one `--from`. */
function parse(args) {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options: { from: { type: 'string' } }, allowPositionals: true, strict: true });
    return positionals.length === 1 ? { directory: positionals[0], from: values.from } : null;
  } catch {
    return null;
  }
}

/**
 * Writes the application into the directory of `args` (relative to `io.cwd`) and tells what to
 * run next; `io.packageDirectory` stands for where this copy of Loupe is (for the tests).
 * Returns the exit code: 2 for a usage error, 1 when the directory is not empty, its name
 * cannot be a package's or `--from` names nothing.
 */
function createApp(args, io) {
  const parsed = parse(args);
  if (parsed === null) {
    io.err.write(USAGE);
    return 2;
  }
  const from = parsed.from === undefined ? undefined : path.resolve(io.cwd, parsed.from);
  if (from !== undefined && !fs.existsSync(from)) {
    io.err.write(`--from ${parsed.from}: no such tarball or directory (make the tarball with \`npm pack\` in a clone of Loupe).\n`);
    return 1;
  }
  const target = path.resolve(io.cwd, parsed.directory);
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
  const loupe = loupeSpec(target, from, io.packageDirectory ?? PACKAGE_DIRECTORY);
  fs.writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(manifestOf(name, loupe), null, 2)}\n`);
  for (const [from, to] of FILES) {
    const text = fs.readFileSync(path.join(TEMPLATE, from), 'utf8').replaceAll('__APP_NAME__', name);
    fs.writeFileSync(path.join(target, to), text);
  }
  const relative = path.relative(io.cwd, target) || '.';
  io.out.write(
    `Created ${name} in ${target}` +
      (loupe.startsWith('file:') ? `, with ${MANIFEST.name} from ${loupe}.\n\n` : '.\n\n') +
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
