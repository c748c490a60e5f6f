import path from 'node:path';

/**
 * `node` arguments that load TypeScript from the sources as `-r ts-node/register/transpile-only`
 * does, from the compilation cache the test workers share (register-typescript.js): a child
 * costs under a second of CPU to start instead of the 5–8 s ts-node takes to compile the same
 * files again.
 */
export const TYPESCRIPT = ['-r', path.join(__dirname, 'register-typescript.js')] as const;
