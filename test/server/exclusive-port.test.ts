import test from 'ava';
import net from 'node:net';
import { httpRequest } from '../helpers/http-client';
import { runServerToExit, spawnServer } from '../helpers/spawn-server';

/** A port nothing listens on right now: bound on port 0 by the system, then released. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const IN_USE = (port: number): RegExp => new RegExp(`Loupe could not start: Cannot listen on 127\\.0\\.0\\.1:${port}: the address is in use or not available\\.`);

test.serial('a second Loupe on the port one already serves exits 1 with the in-use message; the first keeps serving alone', async (t) => {
  const port = await freePort();
  const first = await spawnServer({ PORT: String(port) });
  try {
    t.is(first.port, port);
    const second = await runServerToExit({ PORT: String(port) });
    t.is(second.code, 1);
    t.regex(second.output, IN_USE(port));
    t.notRegex(second.output, /listening/);
    // Every connection reaches the first one: with a shared port some would have gone to the second.
    for (let i = 0; i < 20; i++) t.is((await httpRequest(port, { path: '/hello/anna' })).status, 200);
    t.is(first.child.exitCode, null);
  } finally {
    t.is(await first.close(), 0);
  }
});

test.serial('a port held by another process gives the same message', async (t) => {
  const port = await freePort();
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  try {
    const run = await runServerToExit({ PORT: String(port) });
    t.is(run.code, 1);
    t.regex(run.output, IN_USE(port));
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});
