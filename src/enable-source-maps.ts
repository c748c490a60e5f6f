/**
 * Stack traces of the compiled Loupe (and of what is loaded after it) point at the TypeScript
 * sources, as with `node --enable-source-maps`: the error page, the profiler and the log show
 * `src/…ts` lines, not `dist/…js`. Imported first by src/index.ts, because Node reads the source
 * map of a module only when source maps are on as it loads. (ts-node maps with its own
`Error.prepareStackTrace`, which takes precedence.)
 */
if (!process.sourceMapsEnabled) process.setSourceMapsEnabled(true);

export {};
