import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { contentKey, sharedArtifact } from '../helpers/shared-artifact';

export const ROOT = path.resolve(__dirname, '..', '..');
export const run = promisify(execFile);

/** The files `npm pack` sees on a fresh clone: the repository's, without node_modules and dist/. */
async function cloneFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\0').filter((file) => file !== '' && file !== 'node_modules' && !file.startsWith('dist/'));
}

/**
 * Packs Loupe as `npm pack` does on a fresh clone: the repository's files but no dist/ are copied
 * into `stage` (which shares node_modules, read only), so that the tarball holds only what
 * `prepack` built, in `stage/dist`. Resolves with the tarball's path.
 */
async function packFreshClone(stage: string, files: readonly string[]): Promise<string> {
  for (const file of files) {
    await mkdir(path.join(stage, path.dirname(file)), { recursive: true });
    await cp(path.join(ROOT, file), path.join(stage, file)).catch((error: NodeJS.ErrnoException) => {
      // A file deleted in the working tree but not yet in the index.
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', stage], { cwd: stage, maxBuffer: 16 * 1024 * 1024 });
  return path.join(stage, stdout.trim().split('\n').pop() ?? '');
}

/**
 * The fresh clone packed once per run for every test file that needs it (the package tests,
 * the API report, the compiled demo's source maps), and kept while no file of the clone and no
 * installed dependency changes: `stage` holds the copy with `prepack`'s build in `stage/dist`,
 * `tarball` the package. Read only: a test that changes files works on a copy.
 */
export async function packedFreshClone(): Promise<{ stage: string; tarball: string }> {
  const files = await cloneFiles();
  const key = await contentKey([...files, 'node_modules/.package-lock.json']);
  const stage = await sharedArtifact('fresh-clone', key, async (dir) => {
    await packFreshClone(dir, files);
  });
  const tarball = (await readdir(stage)).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${stage}`);
  return { stage, tarball: path.join(stage, tarball) };
}

/**
 * Installs `what` (the tarball, and with it the directory's own dependencies) as an application
 * would, from npm's cache when it has everything; resolves with npm's output.
 */
export async function npmInstall(app: string, what: readonly string[], manifest: object | null = { name: 'hello-app', version: '1.0.0', private: true }): Promise<string> {
  if (manifest !== null) await writeFile(path.join(app, 'package.json'), JSON.stringify(manifest));
  const { stdout, stderr } = await run('npm', ['install', ...what, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app, maxBuffer: 16 * 1024 * 1024 });
  return `${stdout}${stderr}`;
}
