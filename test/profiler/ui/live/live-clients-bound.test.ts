import test from 'ava';
import { MAX_LIVE_CLIENTS } from '../../../../src/profiler/ui/live/live-socket';
import { httpRequest } from '../../../helpers/http-client';
import { startTestServer } from '../../../helpers/test-server';
import { isOpen, openWebSocket, type TestWebSocket } from '../../../helpers/websocket-client';

test('the live feed serves a bounded number of clients per process: one more gets a 503, and a place freed is taken again', async (t) => {
  t.timeout(120_000);
  const server = await startTestServer();
  const open: TestWebSocket[] = [];
  try {
    for (let i = 0; i < MAX_LIVE_CLIENTS; i++) {
      const socket = await openWebSocket(server.port, '/_profiler/live');
      if (!isOpen(socket)) return t.fail(`client ${i + 1} was refused: ${socket.status} ${socket.body}`);
      open.push(socket);
    }
    const extra = await openWebSocket(server.port, '/_profiler/live');
    t.false(isOpen(extra));
    if (!isOpen(extra)) {
      t.is(extra.status, 503);
      t.regex(extra.body, new RegExp(`${MAX_LIVE_CLIENTS} clients at most`));
    }
    t.is((await httpRequest(server.port, { path: '/hello/ada' })).status, 200);
    const leaving = open.pop();
    leaving?.close();
    await leaving?.closed;
    let again = await openWebSocket(server.port, '/_profiler/live');
    for (let i = 0; i < 20 && !isOpen(again); i++) again = await openWebSocket(server.port, '/_profiler/live');
    t.true(isOpen(again));
    if (isOpen(again)) open.push(again);
  } finally {
    for (const socket of open) socket.close();
    await server.close();
  }
});
