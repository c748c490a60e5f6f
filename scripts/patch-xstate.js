'use strict';
// npm's postinstall: applies patches/xstate+5.33.3.patch (memoized structure-only steps of
// XState's transition algorithm, see the README's "Local patch of XState") to Loupe's own
// node_modules/xstate, with patch-package. Anywhere else it leaves XState as it is, which is
// correct, only slower: installed as a dependency (the tarball ships no patches/), without
// devDependencies, or with another XState version than the patch was made for.
// Before patching, the pristine files are kept next to the patched ones (`<file>.orig`): the
// tests run Loupe's machines on both and compare. Running it again changes nothing.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const XSTATE_VERSION = '5.33.3';
const PATCH = path.join(ROOT, 'patches', `xstate+${XSTATE_VERSION}.patch`);
const XSTATE_DIR = path.join(ROOT, 'node_modules', 'xstate');
/** Every hunk of the patch comments its change with this. */
const MARKER = 'Loupe patch:';

function leaveUnpatched(reason) {
  console.warn(`loupe: XState is left unpatched (correct, slower): ${reason}`);
}

/** The installed XState's version, or null when there is none. */
function installedXstateVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(XSTATE_DIR, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

function resolvePatchPackage() {
  try {
    return require.resolve('patch-package/index.js', { paths: [ROOT] });
  } catch {
    return null;
  }
}

/** The files the patch changes, relative to node_modules/xstate. */
function patchedFiles() {
  const text = fs.readFileSync(PATCH, 'utf8');
  return [...text.matchAll(/^\+\+\+ b\/node_modules\/xstate\/(\S+)$/gm)].map((match) => match[1]);
}

/** Copies each file the patch changes to `<file>.orig` while it is still unpatched. */
function keepPristineCopies() {
  for (const file of patchedFiles()) {
    const target = path.join(XSTATE_DIR, file);
    if (!fs.readFileSync(target, 'utf8').includes(MARKER)) fs.copyFileSync(target, `${target}.orig`);
    else if (!fs.existsSync(`${target}.orig`)) console.warn(`loupe: ${file} is patched but has no pristine copy; reinstall XState (npm ci) to get one`);
  }
}

function main() {
  if (!fs.existsSync(PATCH)) return leaveUnpatched('no patches/ here (Loupe is installed as a dependency)');
  const version = installedXstateVersion();
  if (version === null) return leaveUnpatched(`no XState in ${XSTATE_DIR}`);
  if (version !== XSTATE_VERSION) return leaveUnpatched(`XState ${version} is installed, the patch is for ${XSTATE_VERSION}; make it again for this version (see the README)`);
  const patchPackage = resolvePatchPackage();
  if (patchPackage === null) return leaveUnpatched('patch-package is not installed (devDependencies omitted)');
  keepPristineCopies();
  // --error-on-fail: a patch that does not apply to the exact version it was made for fails the install.
  const result = spawnSync(process.execPath, [patchPackage, '--error-on-fail'], { cwd: ROOT, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
}

main();
