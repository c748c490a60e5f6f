import path from 'node:path';
import type * as UwsModule from 'uWebSockets.js';
import { LoupeError } from '../errors/loupe-error';
import { describeUwsFailure } from './describe-uws-failure';
import { readUwsPlatform } from './uws-platform';

export type Uws = typeof UwsModule;

/** The npm alias every import of uWebSockets.js goes through (package.json names the package behind it). */
const UWS_PACKAGE = 'uWebSockets.js';

/**
 * Some uWebSockets.js packages fall back to a slow pure-JS imitation when their native binary does
 * not load (the one Loupe used before did). A native addon's functions print as `[native code]`;
 * an imitation's do not.
 */
export function isNativeUws(module: Uws): boolean {
  return typeof module.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(module.App));
}

/** The package's folder, where its binaries lie; null when it is not installed. */
function packageDirOf(id: string): string | null {
  try {
    return path.dirname(require.resolve(id));
  } catch {
    return null;
  }
}

/**
 * uWebSockets.js with its native binary, or an error that says what this system lacks for it.
 * The package's own loader picks the binary for the running platform, architecture and Node ABI;
 * it is required here, not imported, so that only starting a server needs it (inject() does not)
 * and a failure is explained rather than thrown at import. `id`: another copy of the package (tests).
 * It changes nothing in the process: loadTunedUws (tune-process.ts) gives uWS its request-head
 * limit around the first load.
 */
export function loadNativeUws(id: string = UWS_PACKAGE): Uws {
  let module: Uws;
  try {
    module = require(id) as Uws;
  } catch (error) {
    throw new LoupeError('LOUPE_ERR_SERVER_UWS_UNSUPPORTED', describeUwsFailure(readUwsPlatform(packageDirOf(id), error)), { cause: error });
  }
  if (!isNativeUws(module)) {
    throw new LoupeError(
      'LOUPE_ERR_SERVER_UWS_FALLBACK',
      `uWebSockets.js loaded a pure-JS imitation instead of its native binary (Node ${process.versions.node}, ` +
        `ABI ${process.versions.modules}, ${process.platform}-${process.arch}). Loupe refuses to run on it: ` +
        'install the package package.json names (`npm ci`).',
    );
  }
  return module;
}
