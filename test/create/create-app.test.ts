import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Output {
  text: string;
  write(chunk: string): boolean;
}
type CreateApp = (args: readonly string[], io: { out: Output; err: Output; cwd: string }) => number;

// Plain JavaScript, as it runs from the published package.
const { createApp, packageName } = require('../../create/create-app') as { createApp: CreateApp; packageName: (directory: string) => string };
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
    t.is(createApp(['shop'], { out, err: output(), cwd }), 0);
    t.deepEqual(readdirSync(path.join(cwd, 'shop')).sort(), ['.gitignore', 'README.md', 'app.ts', 'docker-compose.yml', 'package.json', 'tsconfig.json']);
    t.regex(out.text, /cd shop\n.*\n {2}npm install\n {2}npm start/);
    const app = JSON.parse(readFileSync(path.join(cwd, 'shop', 'package.json'), 'utf8')) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    t.is(app.name, 'shop');
    t.deepEqual(app.dependencies, { [manifest.name]: manifest.version });
    t.deepEqual(app.devDependencies, { '@types/node': manifest.devDependencies['@types/node'], typescript: manifest.devDependencies['typescript'] });
    t.is(app.scripts['start'], 'tsc && node --enable-source-maps dist/app.js');
    t.regex(readFileSync(path.join(cwd, 'shop', 'app.ts'), 'utf8'), /from 'loupe-kernel'[\s\S]*Hello from shop/);
    t.false(readFileSync(path.join(cwd, 'shop', 'README.md'), 'utf8').includes('__APP_NAME__'));
  });
});

test('create refuses a directory that is not empty, and anything but one directory', (t) => {
  inTempDir((cwd) => {
    writeFileSync(path.join(cwd, 'file'), '');
    const err = output();
    t.is(createApp(['.'], { out: output(), err, cwd }), 1);
    t.regex(err.text, /is not empty/);
    for (const args of [[], ['a', 'b'], ['--help']]) t.is(createApp(args, { out: output(), err: output(), cwd }), 2);
  });
});

test('the package name is the directory name made valid for npm', (t) => {
  t.is(packageName('/tmp/My App'), 'my-app');
  t.is(packageName('/tmp/.hidden'), 'hidden');
  t.is(packageName('/tmp/@@@'), 'loupe-app');
});
