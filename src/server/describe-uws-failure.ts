import { binaryName, compareVersions, type UwsBinary, type UwsPlatform } from './uws-platform';

/** Node's ABI numbers (`process.versions.modules`) by release line, from Node's abi_version_registry.json. */
const NODE_MAJOR_BY_ABI: Readonly<Record<string, string>> = {
  '83': '14',
  '88': '15',
  '93': '16',
  '102': '17',
  '108': '18',
  '111': '19',
  '115': '20',
  '120': '21',
  '127': '22',
  '131': '23',
  '137': '24',
  '141': '25',
};

/** Where the binaries for Node 22 and later (linked against glibc 2.38) load. */
const NEWER_GLIBC_SYSTEMS = 'Debian 13 "trixie", Ubuntu 24.04, the node:24-trixie-slim image';

/** `Node 18, 20, 22` for the binaries' ABIs; an ABI this table does not know is named as such. */
function nodeLines(binaries: readonly UwsBinary[]): string {
  const majors = binaries.flatMap((binary) => NODE_MAJOR_BY_ABI[binary.abi] ?? []);
  const unknown = binaries.filter((binary) => NODE_MAJOR_BY_ABI[binary.abi] === undefined).map((binary) => `ABI ${binary.abi}`);
  return [...(majors.length === 0 ? [] : [`Node ${majors.join(', ')}`]), ...unknown].join(', ');
}

function where(facts: UwsPlatform): string {
  const libc = facts.platform !== 'linux' ? '' : `, ${facts.glibc === null ? 'no glibc' : `glibc ${facts.glibc}`}`;
  return `(Node ${facts.node}, ABI ${facts.abi}, ${facts.platform}-${facts.arch}${libc})`;
}

function loadsHere(binary: UwsBinary, glibc: string): boolean {
  return binary.needsGlibc === null || compareVersions(binary.needsGlibc, glibc) <= 0;
}

/** The one sentence that names what is missing, most specific first. */
function reason(facts: UwsPlatform): string {
  const major = facts.node.split('.')[0] ?? facts.node;
  if (!facts.installed) {
    return 'uWebSockets.js is not installed: run `npm ci` (or `make install`).';
  }
  if (facts.platform === 'linux' && facts.glibc === null) {
    return (
      "uWebSockets.js' Linux binaries are linked against glibc, and this system's C library is not glibc " +
      `(musl, as on Alpine). Use a glibc-based system or image: Debian or Ubuntu (${NEWER_GLIBC_SYSTEMS}).`
    );
  }
  const file = binaryName(facts.platform, facts.arch, facts.abi);
  const binary = facts.binaries.find((candidate) => candidate.file === file);
  if (binary === undefined) {
    const target = `${facts.platform}-${facts.arch}`;
    if (facts.binaries.length === 0) return `uWebSockets.js has no binary for ${target} at all, for any Node version.`;
    return `uWebSockets.js has no binary for Node ${major} (ABI ${facts.abi}) on ${target}; it has binaries for ${nodeLines(facts.binaries)} there.`;
  }
  if (facts.glibc !== null && !loadsHere(binary, facts.glibc)) {
    const glibc = facts.glibc;
    const loadable = facts.binaries.filter((candidate) => loadsHere(candidate, glibc));
    const instead = loadable.length === 0 ? '' : `, or a Node version whose binary loads here: ${nodeLines(loadable)}`;
    return (
      `Node ${major} needs glibc >= ${binary.needsGlibc} for uWebSockets.js' binary (${file}); this system has ${glibc}. ` +
      `Use a system with glibc >= ${binary.needsGlibc} (${NEWER_GLIBC_SYSTEMS})${instead}.`
    );
  }
  return `uWebSockets.js' binary ${file} did not load: ${facts.loadError}`;
}

/**
 * Why uWebSockets.js' native binary does not load here, and what would make it load: the package
 * ships one binary per platform, architecture and Node ABI, each linked against some glibc.
 */
export function describeUwsFailure(facts: UwsPlatform): string {
  return `${reason(facts)} ${where(facts)}`;
}
