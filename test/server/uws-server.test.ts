import test from 'ava';
import { type Kernel } from '../../src/kernel/kernel';
import { loadNativeUws } from '../../src/server/load-uws';
import { UwsServer } from '../../src/server/uws-server';
import { httpRequest } from '../helpers/http-client';

test('an error escaping the kernel answers 500, is reported, and the server keeps serving', async (t) => {
  const reported: unknown[] = [];
  let calls = 0;
  // A kernel with a bug: handle() throws instead of running the machine.
  const kernel = {
    handle: () => {
      calls += 1;
      throw new Error(`a bug in the kernel (${calls})`);
    },
    whenIdle: () => Promise.resolve(),
  } as unknown as Kernel;
  const server = new UwsServer(kernel, { host: '127.0.0.1', port: 0, maxBodySize: 1024, onError: (error) => reported.push(error) }, loadNativeUws());
  const port = await server.listen();
  try {
    const first = await httpRequest(port, { path: '/anything' });
    t.is(first.status, 500);
    t.is(first.body, 'Internal Server Error');
    const second = await httpRequest(port, { path: '/again' });
    t.is(second.status, 500);
    t.is(reported.length, 2);
    t.is((reported[0] as { code?: string }).code, 'LOUPE_ERR_HTTP_INTERNAL');
    t.regex(String((reported[0] as { cause?: unknown }).cause), /a bug in the kernel \(1\)/);
  } finally {
    await server.close(100);
  }
});
