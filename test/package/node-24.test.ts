import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { binaryName, compareVersions, glibcNeededBy } from '../../src/server/uws-platform';
import { httpRequest } from '../helpers/http-client';
import { installNode24 } from '../helpers/node-24';
import { runServerToExit, spawnServer } from '../helpers/spawn-server';

const ROOT = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);

/** Node 24's ABI and the binary uWebSockets.js has for it. */
const NODE_24_BINARY = binaryName(process.platform, process.arch, '137');

function glibcHere(): string {
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report.header?.glibcVersionRuntime ?? 'none';
}

/** check-native's exit code and what it printed, under `node`. */
async function checkNative(node: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(node, [path.join(ROOT, 'scripts', 'check-native.js')], { cwd: ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

// The real Node 24: on a system with the glibc its uWebSockets.js binary needs, Loupe serves;
// on an older one (Debian 12 has 2.36, the binary needs 2.38), the install check and the start
// both fail with a message that names both versions.
test('under Node 24, uWebSockets.js loads where its binary\'s glibc is met, else the start names the glibc it needs', async (t) => {
  t.timeout(240_000);
  const work = await mkdtemp(path.join(os.tmpdir(), 'loupe-node24-'));
  try {
    const node = await installNode24(work);
    t.regex((await run(node, ['--version'])).stdout, /^v24\./);
    const needs = glibcNeededBy(readFileSync(path.join(path.dirname(require.resolve('uWebSockets.js')), NODE_24_BINARY)));
    const glibc = glibcHere();
    const check = await checkNative(node);
    if (needs !== null && (glibc === 'none' || compareVersions(glibc, needs) < 0)) {
      const reason = `Node 24 needs glibc >= ${needs} for uWebSockets.js' binary (${NODE_24_BINARY}); this system has ${glibc}.`;
      t.is(check.code, 1, check.output);
      t.true(check.output.startsWith(`check-native: ${reason}`), check.output);
      const start = await runServerToExit({}, node);
      t.is(start.code, 1, start.output);
      t.true(start.output.includes(`Loupe could not start: ${reason}`), start.output);
    } else {
      t.is(check.code, 0, check.output);
      t.regex(check.output, /uWebSockets\.js: native binary loaded \(Node 24\./);
      const server = await spawnServer({}, node);
      try {
        const hello = await httpRequest(server.port, { path: '/hello/anna' });
        t.is(hello.status, 200);
      } finally {
        await server.close();
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
