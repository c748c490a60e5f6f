/**
 * Stack traces of the compiled demo and of Loupe point at the TypeScript sources, as with
 * `node --enable-source-maps`: the error page, the profiler and the log show `src/…ts` and
 * `demo/…ts` lines, not `dist/…js`. The demo's entry point owns its process, so it decides this
 * (`npm start` passes the flag too); Loupe itself turns nothing on as it is imported. Imported
 * first by demo/main.ts, because Node reads the source map of a module only when source maps
 * are on as it loads. (ts-node maps with its own `Error.prepareStackTrace`, which takes precedence.)
 */
if (!process.sourceMapsEnabled) process.setSourceMapsEnabled(true);

export {};
