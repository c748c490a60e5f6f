import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { binaryName, compareVersions, glibcNeededBy, innermostReason, readUwsPlatform } from '../../src/server/uws-platform';

const INSTALLED = path.dirname(require.resolve('uWebSockets.js'));
const OWN_BINARY = binaryName(process.platform, process.arch, process.versions.modules);

test('versions compare by number, part by part', (t) => {
  t.true(compareVersions('2.38', '2.9') > 0);
  t.true(compareVersions('2.27', '2.36') < 0);
  t.is(compareVersions('2.36', '2.36.0'), 0);
});

test('the newest GLIBC_ version named in a shared object is what it needs', (t) => {
  t.is(glibcNeededBy(Buffer.from('\0GLIBC_2.2.5\0GLIBC_2.38\0GLIBC_2.14\0GLIBC_PRIVATE\0')), '2.38');
  t.is(glibcNeededBy(Buffer.from('no versions here')), null);
});

test('the binary this Node loads needs no newer glibc than this system has', (t) => {
  const facts = readUwsPlatform(INSTALLED, new Error('unused'));
  const own = facts.binaries.find((binary) => binary.file === OWN_BINARY);
  t.truthy(own, `${OWN_BINARY} is among ${facts.binaries.map((binary) => binary.file).join(', ')}`);
  if (process.platform !== 'linux') return;
  t.not(facts.glibc, null, 'the process report names glibc on a glibc system');
  t.is(own?.needsGlibc, glibcNeededBy(readFileSync(path.join(INSTALLED, OWN_BINARY))));
  t.true(compareVersions(own?.needsGlibc ?? '', facts.glibc ?? '') <= 0, `${own?.needsGlibc} <= ${facts.glibc}`);
});

test('the facts list only this platform\'s binaries, in ABI order', (t) => {
  const { binaries, node, abi, installed } = readUwsPlatform(INSTALLED, new Error('unused'));
  t.true(installed);
  t.is(node, process.versions.node);
  t.is(abi, process.versions.modules);
  t.true(binaries.every((binary) => binary.file === binaryName(process.platform, process.arch, binary.abi)));
  t.deepEqual(binaries.map((binary) => Number(binary.abi)), binaries.map((binary) => Number(binary.abi)).sort((a, b) => a - b));
});

test('the reason is the innermost error the package loader wrapped', (t) => {
  const wrapped =
    'This version of uWS.js supports only Node.js versions 16, 18, 20, 21, 22, 24 and 25 on (glibc) Linux, macOS and Windows.\n\n' +
    "Error: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by uws_linux_x64_137.node)";
  t.is(innermostReason(wrapped), "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by uws_linux_x64_137.node)");
  t.is(innermostReason("Cannot find module 'uWebSockets.js'\nRequire stack:\n- /app/x.js"), "Cannot find module 'uWebSockets.js'");
});
