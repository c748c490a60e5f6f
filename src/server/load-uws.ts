import * as uws from 'uWebSockets.js';
import { LoupeError } from '../errors/loupe-error';

export type Uws = typeof uws;

/**
 * The uWebSockets.js package we install silently falls back to a slow pure-JS imitation when
 * its native binary does not load (wrong Node ABI, glibc, or UWS_USE_FALLBACK set). A native
 * addon's functions print as `[native code]`; the imitation's do not.
 */
export function isNativeUws(module: Uws): boolean {
  return typeof module.App === 'function' && /\[native code\]/.test(Function.prototype.toString.call(module.App));
}

/** uWebSockets.js, or an error that says why the native binary is not in use. */
export function loadNativeUws(module: Uws = uws): Uws {
  if (!isNativeUws(module)) {
    throw new LoupeError(
      'LOUPE_ERR_SERVER_UWS_FALLBACK',
      `uWebSockets.js loaded its pure-JS fallback instead of the native binary (Node ${process.versions.node}, ` +
        `ABI ${process.versions.modules}, ${process.platform}-${process.arch}). Loupe refuses to run on it: ` +
        'use Node 20 on Linux x64 with glibc >= 2.31, unset UWS_USE_FALLBACK, and reinstall with `npm ci`.',
    );
  }
  return module;
}
