import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Output {
  text: string;
  write(chunk: string): boolean;
}
type CreateApp = (args: readonly string[], io: { out: Output; err: Output; cwd: string; packageDirectory?: string }) => number;

// Plain JavaScript, as it runs from the published package.
const { createApp, packageName, shellQuote } = require('../../create/create-app') as { createApp: CreateApp; packageName: (directory: string) => string; shellQuote: (word: string) => string };
const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };

function output(): Output {
  return { text: '', write(chunk) { this.text += chunk; return true; } };
}

function inTempDir(run: (cwd: string) => void): void {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'loupe-create-'));
  try {
    run(cwd);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

test('create writes package.json, tsconfig.json, app.ts, docker-compose.yml, a README and .gitignore, and says what to run', (t) => {
  inTempDir((cwd) => {
    const out = output();
    t.is(createApp(['shop'], { out, err: output(), cwd, packageDirectory: path.join(cwd, 'node_modules', 'loupe-kernel') }), 0);
    t.deepEqual(readdirSync(path.join(cwd, 'shop')).sort(), ['.gitignore', 'README.md', 'app.ts', 'docker-compose.yml', 'package.json', 'tsconfig.json']);
    t.regex(out.text, /cd shop\n.*\n {2}npm install\n {2}npm start/);
    const app = JSON.parse(readFileSync(path.join(cwd, 'shop', 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    t.is(app.name, 'shop');
    t.deepEqual(app.dependencies, { [manifest.name]: manifest.version });
    t.deepEqual(app.devDependencies, { '@types/node': manifest.devDependencies['@types/node'], 'ts-node': manifest.devDependencies['ts-node'], typescript: manifest.devDependencies['typescript'] });
    t.is(app.scripts['start'], 'tsc && node --enable-source-maps dist/app.js');
    t.regex(readFileSync(path.join(cwd, 'shop', 'app.ts'), 'utf8'), /from 'loupe-kernel'[\s\S]*Hello from shop/);
    t.false(readFileSync(path.join(cwd, 'shop', 'README.md'), 'utf8').includes('__APP_NAME__'));
  });
});

function loupeDependency(cwd: string, directory: string): string | undefined {
  return (JSON.parse(readFileSync(path.join(cwd, directory, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[manifest.name];
}

test('create run from a clone, or given --from, depends on Loupe through a file: path relative to the application; installed, on the registry version', (t) => {
  inTempDir((cwd) => {
    writeFileSync(path.join(cwd, 'loupe-kernel-0.1.0.tgz'), '');
    const out = output();
    t.is(createApp(['apps/shop', '--from', 'loupe-kernel-0.1.0.tgz'], { out, err: output(), cwd, packageDirectory: path.join(cwd, 'node_modules', 'loupe-kernel') }), 0);
    t.is(loupeDependency(cwd, 'apps/shop'), 'file:../../loupe-kernel-0.1.0.tgz');
    t.regex(out.text, /with loupe-kernel from file:\.\.\/\.\.\/loupe-kernel-0\.1\.0\.tgz/);
    t.is(createApp(['clone-app'], { out: output(), err: output(), cwd, packageDirectory: path.join(cwd, 'src', 'loupe') }), 0);
    t.is(loupeDependency(cwd, 'clone-app'), 'file:../src/loupe');
    t.is(createApp(['registry-app'], { out: output(), err: output(), cwd, packageDirectory: path.join(cwd, 'node_modules', 'loupe-kernel') }), 0);
    t.is(loupeDependency(cwd, 'registry-app'), manifest.version);
    // This checkout is a clone: without packageDirectory, create depends on it.
    t.is(createApp(['here'], { out: output(), err: output(), cwd }), 0);
    t.is(loupeDependency(cwd, 'here'), `file:${path.relative(path.join(cwd, 'here'), path.resolve(__dirname, '..', '..'))}`);
    const err = output();
    t.is(createApp(['missing', '--from', 'nope.tgz'], { out: output(), err, cwd }), 1);
    t.regex(err.text, /^--from nope\.tgz: no such tarball or directory[^\n]*\n$/);
    t.false(existsSync(path.join(cwd, 'missing')));
  });
});

test("the application's dev script restarts it on every change through Node's --watch and ts-node, both in its devDependencies", (t) => {
  inTempDir((cwd) => {
    t.is(createApp(['shop'], { out: output(), err: output(), cwd }), 0);
    const app = JSON.parse(readFileSync(path.join(cwd, 'shop', 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    t.is(app.scripts['dev'], 'node --watch --require ts-node/register/transpile-only app.ts');
    t.truthy(app.devDependencies['ts-node']);
    t.regex(readFileSync(path.join(cwd, 'shop', 'README.md'), 'utf8'), /npm run dev/);
  });
});

test("the application's app.ts exports createApp and listens only when run, so that debug:listeners --app can import it", (t) => {
  inTempDir((cwd) => {
    t.is(createApp(['shop'], { out: output(), err: output(), cwd }), 0);
    const source = readFileSync(path.join(cwd, 'shop', 'app.ts'), 'utf8');
    t.regex(source, /^export const createApp: CreateApp = /m);
    t.regex(source, /^if \(require\.main === module\) \{\n {2}serve\(createApp\)/m);
    t.is(source.match(/serve\(/g)?.length, 1);
  });
});

test('create refuses a directory that is not empty, and anything but one directory', (t) => {
  inTempDir((cwd) => {
    writeFileSync(path.join(cwd, 'file'), '');
    const err = output();
    t.is(createApp(['.'], { out: output(), err, cwd }), 1);
    t.regex(err.text, /is not empty/);
    for (const args of [[], ['a', 'b'], ['--help'], ['a', '--from']]) t.is(createApp(args, { out: output(), err: output(), cwd }), 2);
  });
});

test('the package name is the directory name made valid for npm', (t) => {
  t.is(packageName('/tmp/My App'), 'my-app');
  t.is(packageName('/tmp/.hidden'), 'hidden');
  t.is(packageName('/tmp/@@@'), 'loupe-app');
});

test('the printed cd line, pasted into a POSIX shell, enters a directory whose name holds shell syntax and runs nothing else', (t) => {
  for (const directory of ['a;touch PWNED;b', "it's $(touch PWNED) `touch PWNED`", 'two words']) {
    inTempDir((cwd) => {
      const out = output();
      t.is(createApp([directory], { out, err: output(), cwd }), 0, directory);
      const line = /^ {2}(cd .*)$/m.exec(out.text)?.[1] ?? '';
      t.not(line, `cd ${directory}`, directory);
      const shell = spawnSync('sh', ['-c', `${line} && pwd`], { cwd, encoding: 'utf8' });
      t.is(shell.status, 0, shell.stderr);
      t.is(shell.stdout.trim(), path.join(cwd, directory));
      t.false(existsSync(path.join(cwd, 'PWNED')), line);
      t.false(existsSync(path.join(cwd, directory, 'PWNED')), line);
    });
  }
});

test('a plain path is printed as it is, anything else in single quotes with a quote written as \'\\\'\'', (t) => {
  t.is(shellQuote('apps/shop-2.0'), 'apps/shop-2.0');
  t.is(shellQuote('a;b'), "'a;b'");
  t.is(shellQuote("it's"), "'it'\\''s'");
  t.is(shellQuote('~/x'), "'~/x'");
});

test('a directory whose name npm refuses as a package name is refused in one line, and nothing is written', (t) => {
  for (const directory of ['node_modules', 'favicon.ico', path.join('apps', 'node_modules'), 'x'.repeat(215)]) {
    inTempDir((cwd) => {
      const err = output();
      t.is(createApp([directory], { out: output(), err, cwd }), 1, directory);
      t.regex(err.text, /^[^\n]+ cannot hold an application: its package\.json is named after the directory, and [^\n]+\n$/, directory);
      t.false(existsSync(path.join(cwd, directory)), directory);
    });
  }
  inTempDir((cwd) => t.is(createApp(['x'.repeat(214)], { out: output(), err: output(), cwd }), 0));
});
