import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One prebuilt binary of the uWebSockets.js package, for the running platform and architecture. */
export interface UwsBinary {
  readonly file: string;
  /** The Node ABI (`process.versions.modules`) it was built for. */
  readonly abi: string;
  /** The newest glibc symbol version it links against; null off Linux. */
  readonly needsGlibc: string | null;
}

/** What decides whether uWebSockets.js' native binary loads here; read once, after a load failed. */
export interface UwsPlatform {
  readonly node: string;
  readonly abi: string;
  readonly platform: string;
  readonly arch: string;
  /** glibc's version at run time; null where the C library is not glibc (musl) or off Linux. */
  readonly glibc: string | null;
  /** Whether the package itself resolves (its binaries may still not load). */
  readonly installed: boolean;
  /** The package's binaries for this platform and architecture. */
  readonly binaries: readonly UwsBinary[];
  /** Why loading failed, in the words of the innermost error (the dynamic linker's, where it spoke). */
  readonly loadError: string;
}

/**
 * Binaries are named `uws_<platform>_<arch>_<abi>.node`, the name the package's own loader
 * (`uws.js`) requires for the running Node.
 */
export function binaryName(platform: string, arch: string, abi: string): string {
  return `uws_${platform}_${arch}_${abi}.node`;
}

const BINARY_FILE = /^uws_([a-z0-9]+)_([a-z0-9]+)_(\d+)\.node$/;

/**
 * The newest `GLIBC_x.y` version a shared object names: the dynamic linker refuses to load it on
 * an older glibc. The names sit in the version-needs strings (what `objdump -T` lists); a scan of
 * the bytes finds the same maximum without an ELF parser.
 */
export function glibcNeededBy(bytes: Buffer): string | null {
  let newest: string | null = null;
  for (const [, version] of bytes.toString('latin1').matchAll(/GLIBC_(\d+\.\d+(?:\.\d+)?)/g)) {
    if (version !== undefined && (newest === null || compareVersions(version, newest) > 0)) newest = version;
  }
  return newest;
}

/** Orders dotted versions numerically (`2.38` after `2.9`). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** glibc's version from the process report's header: absent on musl, where Node is not linked against glibc. */
function runtimeGlibc(): string | null {
  if (process.platform !== 'linux') return null;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report.header?.glibcVersionRuntime ?? null;
}

function listBinaries(packageDir: string | null): UwsBinary[] {
  if (packageDir === null) return [];
  return readdirSync(packageDir)
    .flatMap((file) => {
      const [, platform, arch, abi] = BINARY_FILE.exec(file) ?? [];
      return platform === process.platform && arch === process.arch && abi !== undefined ? [{ file, abi }] : [];
    })
    .map(({ file, abi }) => ({
      file,
      abi,
      needsGlibc: process.platform === 'linux' ? glibcNeededBy(readFileSync(path.join(packageDir, file))) : null,
    }))
    .sort((a, b) => Number(a.abi) - Number(b.abi));
}

/**
 * The package's loader wraps the linker's error in its own sentence ("This version of uWS.js
 * supports only…\n\nError: <reason>"): the last `Error:` line is the reason; without one, the first line.
 */
export function innermostReason(message: string): string {
  const lines = message.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const wrapped = lines.filter((line) => line.startsWith('Error: ')).pop();
  return wrapped === undefined ? (lines[0] ?? message) : wrapped.slice('Error: '.length);
}

/** The facts of this process and of the package in `packageDir` (null: not installed), after `error`. */
export function readUwsPlatform(packageDir: string | null, error: unknown): UwsPlatform {
  return {
    node: process.versions.node,
    abi: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
    glibc: runtimeGlibc(),
    installed: packageDir !== null,
    binaries: listBinaries(packageDir),
    loadError: innermostReason(error instanceof Error ? error.message : String(error)),
  };
}
