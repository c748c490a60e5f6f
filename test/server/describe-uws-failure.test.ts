import test from 'ava';
import { describeUwsFailure } from '../../src/server/describe-uws-failure';
import { type UwsBinary, type UwsPlatform } from '../../src/server/uws-platform';

/** The package's Linux x64 binaries as uwebsockets@3.0.6 ships them: Node 20's needs glibc 2.27, Node 22's and later 2.38. */
const LINUX_X64: readonly UwsBinary[] = [
  { file: 'uws_linux_x64_108.node', abi: '108', needsGlibc: '2.27' },
  { file: 'uws_linux_x64_115.node', abi: '115', needsGlibc: '2.27' },
  { file: 'uws_linux_x64_127.node', abi: '127', needsGlibc: '2.38' },
  { file: 'uws_linux_x64_137.node', abi: '137', needsGlibc: '2.38' },
];

const NODE_24_ON_BOOKWORM: UwsPlatform = {
  node: '24.21.0',
  abi: '137',
  platform: 'linux',
  arch: 'x64',
  glibc: '2.36',
  installed: true,
  binaries: LINUX_X64,
  loadError: "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /app/node_modules/uWebSockets.js/uws_linux_x64_137.node)",
};

test('Node 24 on glibc 2.36: names the glibc the binary needs, the one here, and the Node versions that load here', (t) => {
  t.is(
    describeUwsFailure(NODE_24_ON_BOOKWORM),
    "Node 24 needs glibc >= 2.38 for uWebSockets.js' binary (uws_linux_x64_137.node); this system has 2.36. " +
      'Use a system with glibc >= 2.38 (Debian 13 "trixie", Ubuntu 24.04, the node:24-trixie-slim image), ' +
      'or a Node version whose binary loads here: Node 18, 20. (Node 24.21.0, ABI 137, linux-x64, glibc 2.36)',
  );
});

test('glibc versions compare as numbers: 2.9 is older than 2.38', (t) => {
  const message = describeUwsFailure({ ...NODE_24_ON_BOOKWORM, glibc: '2.9' });
  t.regex(message, /^Node 24 needs glibc >= 2\.38 .* this system has 2\.9\. /);
  t.notRegex(message, /loads here/, 'no binary loads on glibc 2.9');
});

test('on musl (no glibc at run time) it says the binaries need glibc', (t) => {
  const message = describeUwsFailure({ ...NODE_24_ON_BOOKWORM, glibc: null, loadError: 'Error relocating uws_linux_x64_137.node: __isoc23_strtol: symbol not found' });
  t.regex(message, /^uWebSockets\.js' Linux binaries are linked against glibc, and this system's C library is not glibc \(musl, as on Alpine\)\./);
  t.regex(message, /\(Node 24\.21\.0, ABI 137, linux-x64, no glibc\)$/);
});

test('a Node ABI the package has no binary for: names it and lists the ones it has', (t) => {
  t.is(
    describeUwsFailure({ ...NODE_24_ON_BOOKWORM, node: '23.11.1', abi: '131', glibc: '2.41', loadError: "Cannot find module './uws_linux_x64_131.node'" }),
    'uWebSockets.js has no binary for Node 23 (ABI 131) on linux-x64; it has binaries for Node 18, 20, 22, 24 there. ' +
      '(Node 23.11.1, ABI 131, linux-x64, glibc 2.41)',
  );
});

test('an ABI missing from the table of Node versions is named by number', (t) => {
  const binaries = [...LINUX_X64, { file: 'uws_linux_x64_999.node', abi: '999', needsGlibc: '2.38' }];
  const message = describeUwsFailure({ ...NODE_24_ON_BOOKWORM, node: '99.0.0', abi: '998', binaries });
  t.regex(message, /it has binaries for Node 18, 20, 22, 24, ABI 999 there\./);
});

test('a platform the package has nothing for', (t) => {
  t.is(
    describeUwsFailure({ ...NODE_24_ON_BOOKWORM, arch: 'riscv64', binaries: [], loadError: "Cannot find module './uws_linux_riscv64_137.node'" }),
    'uWebSockets.js has no binary for linux-riscv64 at all, for any Node version. (Node 24.21.0, ABI 137, linux-riscv64, glibc 2.36)',
  );
});

test('a binary that should load but does not: the loader\'s own reason, off Linux without a glibc part', (t) => {
  t.is(
    describeUwsFailure({
      node: '22.20.0',
      abi: '127',
      platform: 'darwin',
      arch: 'arm64',
      glibc: null,
      installed: true,
      binaries: [{ file: 'uws_darwin_arm64_127.node', abi: '127', needsGlibc: null }],
      loadError: "dlopen(uws_darwin_arm64_127.node, 0x0001): tried: 'uws_darwin_arm64_127.node' (code signature invalid)",
    }),
    "uWebSockets.js' binary uws_darwin_arm64_127.node did not load: dlopen(uws_darwin_arm64_127.node, 0x0001): " +
      "tried: 'uws_darwin_arm64_127.node' (code signature invalid) (Node 22.20.0, ABI 127, darwin-arm64)",
  );
});

test('a package that is not installed at all', (t) => {
  t.regex(describeUwsFailure({ ...NODE_24_ON_BOOKWORM, installed: false, binaries: [] }), /^uWebSockets\.js is not installed: run `npm ci` \(or `make install`\)\. \(Node 24/);
});
