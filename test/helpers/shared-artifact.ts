import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.cache', 'artifacts');

/** Whether the process that wrote `lock` is gone (it failed or was killed while making the artifact). */
async function abandoned(lock: string): Promise<boolean> {
  const pid = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * A directory that `make` fills once for every test worker that asks for the same `name` and
 * `key`, whichever asks first: the others wait for it (one ava worker runs per test file, so a
 * build several files need would otherwise run once per file, side by side). It lives in
 * .cache/artifacts/ (`make clean` removes it); `key` must change with every input of `make`, so
 * that what is found there is always what the inputs give now. Older keys of the same name are
 * deleted once a new one is made (and only those: no name is taken for the start of another).
 */
export async function sharedArtifact(name: string, key: string, make: (dir: string) => Promise<void>): Promise<string> {
  // `~` ends the name: `node-24`'s older keys are not `node-24-glibc`'s artifacts.
  const dir = path.join(CACHE, `${name}~${key.slice(0, 24)}`);
  const done = path.join(dir, '.done');
  const lock = `${dir}.lock`;
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(done)) return dir;
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await abandoned(lock)) await rm(lock, { recursive: true, force: true });
    else await sleep(250);
  }
  try {
    await writeFile(path.join(lock, 'pid'), String(process.pid));
    if (existsSync(done)) return dir;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await make(dir);
    await writeFile(done, '');
    for (const entry of await readdir(CACHE)) {
      if (entry.startsWith(`${name}~`) && !entry.endsWith('.lock') && path.join(CACHE, entry) !== dir) {
        await rm(path.join(CACHE, entry), { recursive: true, force: true });
      }
    }
    return dir;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** A digest of `files` (paths relative to the repository) and their contents. */
export async function contentKey(files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(file).update('\0');
    hash.update(await readFile(path.join(ROOT, file)).catch(() => Buffer.from('(missing)'))).update('\0');
  }
  return hash.digest('hex');
}
