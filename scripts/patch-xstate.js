'use strict';
// npm's `dependencies` script, which npm runs for the root project only (after `npm ci`, or an
// `npm install` that changed node_modules), never for a package installed as a dependency:
// applies patches/xstate+5.33.3.patch (memoized structure-only steps of XState's transition
// algorithm, see docs/xstate-patch.md) to Loupe's own node_modules/xstate, with patch-package.
// The published package bundles that patched XState (`bundleDependencies`), so an application
// gets it without an install script to approve. Without devDependencies, or with another XState
// version than the patch was made for, it leaves XState as it is: correct, only slower.
// Before patching, the pristine files are kept next to the patched ones (`<file>.orig`): the
// tests run Loupe's machines on both and compare. Running it again changes nothing, unless the
// patch itself changed since it was applied (node_modules/xstate/.loupe-patch records which one
// was): then the pristine copies are put back and the new patch applied (`make install` runs it).
// `--check` (npm's prepack) changes nothing and fails unless every file of the patch is patched:
// the tarball must not bundle an unpatched XState.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const XSTATE_VERSION = '5.33.3';
const PATCH = path.join(ROOT, 'patches', `xstate+${XSTATE_VERSION}.patch`);
const XSTATE_DIR = path.join(ROOT, 'node_modules', 'xstate');
/** Every hunk of the patch comments its change with this. */
const MARKER = 'Loupe patch:';
/** The digest of the patch last applied to node_modules/xstate. */
const APPLIED = path.join(XSTATE_DIR, '.loupe-patch');

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

function patchDigest() {
  return crypto.createHash('sha256').update(fs.readFileSync(PATCH)).digest('hex');
}

function appliedDigest() {
  try {
    return fs.readFileSync(APPLIED, 'utf8').trim();
  } catch {
    return null;
  }
}

function carriesMarker(file) {
  const target = path.join(XSTATE_DIR, file);
  return fs.existsSync(target) && fs.readFileSync(target, 'utf8').includes(MARKER);
}

/** True when every file the patch changes carries its marker, from this very patch. */
function isPatched() {
  return patchedFiles().every(carriesMarker) && appliedDigest() === patchDigest();
}

/** Puts back the pristine copy of every file an earlier version of the patch changed. */
function restorePristineCopies() {
  for (const file of patchedFiles().filter(carriesMarker)) {
    const target = path.join(XSTATE_DIR, file);
    if (!fs.existsSync(`${target}.orig`)) throw new Error(`loupe: ${file} carries an older patch and has no pristine copy; reinstall XState (npm ci)`);
    fs.copyFileSync(`${target}.orig`, target);
  }
}

function check() {
  if (installedXstateVersion() !== XSTATE_VERSION || !isPatched()) {
    console.error(`loupe: ${XSTATE_DIR} is not XState ${XSTATE_VERSION} with patches/ applied; run \`npm ci\` (its prepare applies them) before packing`);
    process.exitCode = 1;
  }
}

function main() {
  if (process.argv.includes('--check')) return check();
  if (!fs.existsSync(PATCH)) return leaveUnpatched('no patches/ here (Loupe is installed as a dependency)');
  const version = installedXstateVersion();
  if (version === null) return leaveUnpatched(`no XState in ${XSTATE_DIR}`);
  if (version !== XSTATE_VERSION) return leaveUnpatched(`XState ${version} is installed, the patch is for ${XSTATE_VERSION}; make it again for this version (see the README)`);
  const patchPackage = resolvePatchPackage();
  if (patchPackage === null) return leaveUnpatched('patch-package is not installed (devDependencies omitted)');
  keepPristineCopies();
  if (isPatched()) return;
  restorePristineCopies();
  // --error-on-fail: a patch that does not apply to the exact version it was made for fails the install.
  const result = spawnSync(process.execPath, [patchPackage, '--error-on-fail'], { cwd: ROOT, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
  if (result.status === 0) fs.writeFileSync(APPLIED, `${patchDigest()}\n`);
}

main();
