import test from 'ava';
import { copyFile, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isNativeUws, loadNativeUws } from '../../src/server/load-uws';
import { binaryName } from '../../src/server/uws-platform';

const INSTALLED = path.dirname(require.resolve('uWebSockets.js'));
const OWN_BINARY = binaryName(process.platform, process.arch, process.versions.modules);
const MAJOR = process.versions.node.split('.')[0];
/** As the environment gave it, before any test here loaded the package. */
const MAX_HEAD_SIZE_GIVEN = process.env['UWS_HTTP_MAX_HEADERS_SIZE'];

/**
 * A copy of the installed package whose binaries are links to the real ones, without the one for
 * this Node: what an install on a Node the package has no build for looks like.
 */
async function packageWithoutOwnBinary(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-uws-'));
  for (const file of ['package.json', 'uws.js']) await copyFile(path.join(INSTALLED, file), path.join(dir, file));
  for (const file of await readdir(INSTALLED)) {
    if (file.endsWith('.node') && file !== OWN_BINARY) await symlink(path.join(INSTALLED, file), path.join(dir, file));
  }
  return dir;
}

test('the installed uWebSockets.js loads its native binary for this Node', (t) => {
  const uws = loadNativeUws();
  t.true(isNativeUws(uws));
  t.is(uws, require('uWebSockets.js'));
  t.is(typeof uws.App().any, 'function');
});

test('loading uWS changes nothing in the environment: its request-head limit is the tuning of the process owner', (t) => {
  loadNativeUws();
  t.is(process.env['UWS_HTTP_MAX_HEADERS_SIZE'], MAX_HEAD_SIZE_GIVEN);
});

test('a package that loads a pure-JS imitation is refused with a clear error', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-uws-'));
  try {
    await writeFile(path.join(dir, 'index.js'), 'module.exports = { App: function App() { return {}; } };\n');
    const error = t.throws(() => loadNativeUws(dir));
    t.is((error as { code?: string }).code, 'LOUPE_ERR_SERVER_UWS_FALLBACK');
    t.regex(error?.message ?? '', /loaded a pure-JS imitation instead of its native binary/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a package with no binary for this Node says so and names the Node versions it has binaries for', async (t) => {
  const dir = await packageWithoutOwnBinary();
  try {
    const error = t.throws(() => loadNativeUws(dir));
    t.is((error as { code?: string }).code, 'LOUPE_ERR_SERVER_UWS_UNSUPPORTED');
    const target = `${process.platform}-${process.arch}`;
    t.true(
      error?.message.startsWith(`uWebSockets.js has no binary for Node ${MAJOR} (ABI ${process.versions.modules}) on ${target}; it has binaries for Node `),
      error?.message,
    );
    t.notRegex(error?.message ?? '', new RegExp(`binaries for Node [\\d, ]*\\b${MAJOR}\\b`));
    // The package's own loader said why; it stays reachable as the cause.
    t.regex(String((error as { cause?: unknown }).cause), /Cannot find module/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a missing package says to install it', (t) => {
  const error = t.throws(() => loadNativeUws(path.join(os.tmpdir(), 'no-such-uws-package')));
  t.is((error as { code?: string }).code, 'LOUPE_ERR_SERVER_UWS_UNSUPPORTED');
  t.regex(error?.message ?? '', /^uWebSockets\.js is not installed: run `npm ci`/);
});
