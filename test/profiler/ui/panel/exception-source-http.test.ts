import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { httpRequest } from '../../../helpers/http-client';
import { startIoApp, type IoApp } from '../../app-io/io-app';

let io: IoApp;
let outside: string;

test.before(async () => {
  outside = await mkdtemp(path.join(tmpdir(), 'loupe-outside-root-'));
  // A file outside the application's root that looks like source: its lines must never be shown.
  await writeFile(path.join(outside, 'secret.ts'), 'const OUTSIDE_ROOT_SECRET = 1;\n'.repeat(5));
  io = await startIoApp([
    {
      name: 'err',
      path: '/err',
      methods: ['GET'],
      controller: {
        name: 'err',
        handle: ({ request }) => {
          throw new Error(`Bad input: ${request.queryParams.get('m') ?? ''}`); // THE_THROWING_LINE
        },
      },
    },
  ]);
});

test.after.always(async () => {
  await io?.close();
  await rm(outside, { recursive: true, force: true });
});

/** The Exception panel of a request to /err whose message ends with `m`. */
async function exceptionPanel(m: string): Promise<string> {
  const res = await httpRequest(io.port, { path: `/err?m=${encodeURIComponent(m)}` });
  if (res.status !== 500) throw new Error(`/err answered ${res.status}`);
  const token = res.headers['x-debug-token'];
  await io.app.profiler?.writer.whenIdle();
  const panel = await httpRequest(io.port, { path: `/_profiler/${String(token)}?panel=exception` });
  if (panel.status !== 200) throw new Error(`The panel answered ${panel.status}`);
  return panel.body;
}

test('an error message that names files as frames shows none of them, and the application\'s own lines still', async (t) => {
  for (const file of ['/etc/passwd', '/proc/self/environ', path.join(outside, 'secret.ts'), `file://${path.join(outside, 'secret.ts')}`, path.join(process.cwd(), 'package.json')]) {
    const body = await exceptionPanel(`\n    at x (${file}:1:1)\n    at y (${file}:2:1)`);
    t.false(body.includes('root:x:0:0'), file);
    t.false(body.includes('OUTSIDE_ROOT_SECRET'), file);
    t.false(body.includes('"name": "loupe-kernel"') || body.includes('&quot;name&quot;: &quot;loupe-kernel&quot;'), file);
    t.false(/<span class="fn">[xy]<\/span>/.test(body), `${file}: the forged lines are not frames`);
    t.true(body.includes('THE_THROWING_LINE'), 'the frame of the route shows its source');
  }
});
