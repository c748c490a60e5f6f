import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { startTestServer } from '../helpers/test-server';

/*
 * The debug error page shows the source lines of the application's files under
 * PROFILER_SOURCE_ROOT, as the Exception panel does: by default the working directory (the demo's
 * controllers are under it), and with the setting, only what is under that root.
 */

test('the debug error page reads source lines under the working directory by default', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const page = await httpRequest(server.port, { path: '/boom', headers: { accept: 'text/html' } });
  t.is(page.status, 500);
  t.true(page.body.includes('<div class="source">'), 'the lines around the demo controller\'s frame');
});

test('with PROFILER_SOURCE_ROOT elsewhere the debug error page shows no line of files outside it', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'loupe-source-root-'));
  const server = await startTestServer({ PROFILER_SOURCE_ROOT: root });
  t.teardown(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });
  const page = await httpRequest(server.port, { path: '/boom', headers: { accept: 'text/html' } });
  t.is(page.status, 500);
  t.true(page.body.includes('class="frame'), 'the trace is still shown');
  t.false(page.body.includes('<div class="source">'), 'without lines: no frame is under the root');
});
