import Module, { createRequire } from 'node:module';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';
import { onLibraryLoad } from '../../../src/profiler/app-io/on-library-load';
import { startAppIoCapture } from '../../../src/profiler/app-io/start-app-io-capture';

/*
 * onLibraryLoad on packages written for the test in a temp directory: `widgets` installed under
 * its own name, again under an alias (`widgets-alias`, whose package.json names it `widgets`),
 * and `gadgets`, another package with a file at the same place; and the capture of pg and mysql2
 * started and stopped in this process.
 */

let dir = '';
let requireHere: NodeRequire = require;

/** A package in node_modules/`folder` whose package.json names it `manifestName`,, whose lib/widget.js exports a class of its own. */
async function writePackage(folder: string, manifestName: string): Promise<void> {
  const root = path.join(dir, 'node_modules', folder);
  await mkdir(path.join(root, 'lib'), { recursive: true });
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: manifestName, main: 'lib/index.js' }));
  await writeFile(path.join(root, 'lib', 'widget.js'), 'module.exports = class Widget {};\n');
  await writeFile(path.join(root, 'lib', 'index.js'), "exports.Widget = require('./widget');\n");
}

test.before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-library-load-'));
  await writePackage('widgets', 'widgets');
  await writePackage('widgets-alias', 'widgets');
  await writePackage('gadgets', 'gadgets');
  requireHere = createRequire(path.join(dir, 'app.js'));
});

test.after.always(async () => {
  for (const file of Object.keys(require.cache)) if (file.startsWith(dir)) delete require.cache[file];
  await rm(dir, { recursive: true, force: true });
});

const loader = Module.prototype as unknown as { load: unknown };

test.serial('every copy of the package is patched once, loaded before or after, under its own name or an alias; another package is not', (t) => {
  const before = requireHere('widgets') as { Widget: object };
  const patched: object[] = [];
  const undone: object[] = [];
  const stop = onLibraryLoad('widgets', 'lib/widget.js', (Widget) => {
    patched.push(Widget);
    return () => undone.push(Widget);
  });
  const aliased = requireHere('widgets-alias') as { Widget: object };
  requireHere('gadgets');
  requireHere('widgets');
  t.deepEqual(patched, [before.Widget, aliased.Widget]);
  t.not(before.Widget, aliased.Widget);
  stop();
  t.deepEqual(undone, [aliased.Widget, before.Widget], 'undone last first');
});

test.serial('the loader is put back once the last watcher stops, in whichever order they stop', (t) => {
  const original = loader.load;
  const first = onLibraryLoad('widgets', 'lib/widget.js', () => () => undefined);
  const second = onLibraryLoad('gadgets', 'lib/widget.js', () => () => undefined);
  t.not(loader.load, original);
  first();
  t.not(loader.load, original, 'the second watcher still needs it');
  second();
  t.is(loader.load, original);
});

test.serial('a patch that throws leaves the application\'s require working, with a warning', async (t) => {
  for (const file of Object.keys(require.cache)) if (file.startsWith(path.join(dir, 'node_modules', 'gadgets'))) delete require.cache[file];
  const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
  const stop = onLibraryLoad('gadgets', 'lib/widget.js', () => {
    throw new Error('frozen');
  });
  try {
    t.is(typeof (requireHere('gadgets') as { Widget: unknown }).Widget, 'function');
    t.regex((await warned).message, /gadgets.*frozen/);
  } finally {
    stop();
  }
});

test.serial('stopping the capture of pg and mysql2 puts the loader and pg\'s Client.prototype.query back as they were', (t) => {
  const original = { load: loader.load, query: pg.Client.prototype.query };
  const stop = startAppIoCapture(['pg', 'mysql2']);
  t.not(pg.Client.prototype.query, original.query, 'the pg loaded before is wrapped');
  t.not(loader.load, original.load);
  stop();
  t.is(pg.Client.prototype.query, original.query);
  t.is(loader.load, original.load);
});
