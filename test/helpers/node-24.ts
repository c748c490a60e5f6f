import { execFile } from 'node:child_process';
import { readdir, writeFile, chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { sharedArtifact } from './shared-artifact';

const run = promisify(execFile);

/** Node 24 as the npm registry ships it (node-<platform>-<arch>), from npm's cache once fetched. */
export const NODE_24 = `node-${process.platform}-${process.arch}@24.21.0`;

/** The Node releases besides this one that Loupe supports (package.json `engines`), as the npm registry ships them. */
export const NODE_RELEASES = { 22: `node-${process.platform}-${process.arch}@22.23.5`, 24: NODE_24 } as const;

/** Unpacks the Node of `spec` (one of NODE_RELEASES) into `dir` and answers the path of its `node`. */
export async function installNode(spec: string, dir: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', spec, '--silent', '--prefer-offline', '--pack-destination', dir], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  const tarball = stdout.trim().split('\n').pop() ?? '';
  await run('tar', ['xzf', path.join(dir, tarball), '-C', dir]);
  return path.join(dir, 'package', 'bin', 'node');
}

/** Unpacks Node 24 into `dir` and answers the path of its `node`. */
export async function installNode24(dir: string): Promise<string> {
  return installNode(NODE_24, dir);
}

/** The `node` of a release of NODE_RELEASES, unpacked once in .cache/artifacts/ for every test file that asks. */
export async function nodeRelease(major: keyof typeof NODE_RELEASES): Promise<string> {
  const dir = await sharedArtifact(`node-${major}`, NODE_RELEASES[major], async (into) => void (await installNode(NODE_RELEASES[major], into)));
  return path.join(dir, 'package', 'bin', 'node');
}

/** Debian 13's C and C++ runtime: the glibc (2.41) uWebSockets.js' binaries for Node 22 and later need (2.38 or later). */
const TRIXIE_PACKAGES = ['libc6', 'libstdc++6', 'libgcc-s1'] as const;

/** Downloads (never installs) TRIXIE_PACKAGES from this machine's own Debian source and unpacks them in `dir`/root (docs/requirements.md, "Node 24 on Debian 12"). */
async function unpackTrixieLibc(dir: string): Promise<string> {
  const { stdout: sources } = await run('awk', ['BEGIN{RS="";ORS="\\n\\n"} NR==1', '/etc/apt/sources.list.d/debian.sources']);
  if (!/^URIs:/m.test(sources)) throw new Error('No Debian source in /etc/apt/sources.list.d/debian.sources to download Debian 13\'s glibc from.');
  await writeFile(path.join(dir, 'trixie.sources'), sources.replace(/^Suites:.*$/m, 'Suites: trixie'));
  await mkdir(path.join(dir, 'state', 'lists', 'partial'), { recursive: true });
  await mkdir(path.join(dir, 'cache', 'archives', 'partial'), { recursive: true });
  const apt = ['-o', 'Dir::Etc::SourceList=/dev/null', '-o', `Dir::Etc::SourceParts=${dir}`, '-o', `Dir::State::Lists=${dir}/state/lists`, '-o', `Dir::Cache=${dir}/cache`];
  await run('apt-get', [...apt, 'update'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  await run('apt-get', [...apt, 'download', ...TRIXIE_PACKAGES], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  for (const deb of (await readdir(dir)).filter((file) => file.endsWith('.deb'))) await run('dpkg-deb', ['-x', path.join(dir, deb), path.join(dir, 'root')]);
  return path.join(dir, 'root', 'usr', 'lib', 'x86_64-linux-gnu');
}

/**
 * An executable that runs Node 24 on Debian 13's glibc through its own dynamic loader, on this
 * Debian 12 machine (glibc 2.36), so that uWebSockets.js' Node 24 binary loads: the production
 * runtime. Made once in .cache/artifacts/ for every test file that asks; rejects with why when it
 * cannot be made (no network, no Debian source), so that a test fails rather than skips.
 */
export async function node24OnNewGlibc(): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`Node 24 on Debian 13's glibc is set up for linux-x64 only, not ${process.platform}-${process.arch}.`);
  const dir = await sharedArtifact('node-24-glibc', `${NODE_24}|trixie|${TRIXIE_PACKAGES.join(',')}`, async (into) => {
    const libs = await unpackTrixieLibc(into);
    const node = await installNode24(into);
    const wrapper = path.join(into, 'node');
    await writeFile(wrapper, `#!/bin/sh\nexec "${libs}/ld-linux-x86-64.so.2" --library-path "${libs}" "${node}" "$@"\n`);
    await chmod(wrapper, 0o755);
  });
  return path.join(dir, 'node');
}
