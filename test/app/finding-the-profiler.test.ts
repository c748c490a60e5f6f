import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

let debug: TestServer;
let noDebug: TestServer;

test.before(async () => {
  [debug, noDebug] = await Promise.all([startTestServer(), startTestServer({ APP_DEBUG: '0' })]);
});

test.after.always(async () => {
  await Promise.all([debug?.close(), noDebug?.close()]);
});

const PROFILE_LINK = /<footer class="container profile-link"><p>Profile of this request: <a href="\/_profiler\/([0-9a-f]{6})">\1<\/a><\/p><\/footer>\n[\s\S]*<\/body>/;

test('with debug the welcome page links to the profiler, and the links open it', async (t) => {
  const welcome = await httpRequest(debug.port, { path: '/' });
  t.regex(welcome.body, /<a href="\/_profiler\/">the recent requests<\/a>, <a href="\/_profiler\/latest">the latest profile<\/a>/);
  await debug.profiler?.writer.whenIdle();
  for (const path of ['/_profiler/', '/_profiler/latest']) {
    const res = await httpRequest(debug.port, { path });
    t.true(res.status === 200 || res.status === 302, `${path}: ${res.status}`);
  }
});

test('without debug the welcome page does not mention the profiler, which does not exist', async (t) => {
  const welcome = await httpRequest(noDebug.port, { path: '/' });
  t.is(welcome.status, 200);
  t.false(welcome.body.includes('href="/_profiler/'));
  t.is((await httpRequest(noDebug.port, { path: '/_profiler/' })).status, 404);
});

for (const [path, status] of [
  ['/boom', 500],
  ['/nope', 404],
] as const) {
  test(`the HTML error page of ${path} links to its own profile, which shows that request`, async (t) => {
    const res = await httpRequest(debug.port, { path });
    t.is(res.status, status);
    const token = String(res.headers['x-debug-token']);
    t.is(PROFILE_LINK.exec(res.body)?.[1], token);
    t.is(Number(res.headers['content-length']), Buffer.byteLength(res.body));
    await debug.profiler?.writer.whenIdle();
    const profile = await httpRequest(debug.port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
    t.is(profile.status, 200);
    t.like(JSON.parse(profile.body), { token, statusCode: status, type: 'main' });
  });
}

test('only HTML error pages of profiled requests get the link: not JSON errors, other pages, nor pages without debug', async (t) => {
  const json = await httpRequest(debug.port, { path: '/boom', headers: { Accept: 'application/json' } });
  t.is(json.status, 500);
  t.like(JSON.parse(json.body), { status: 500 });
  const hello = await httpRequest(debug.port, { path: '/hello/Ada' });
  t.is(hello.status, 200);
  t.false(hello.body.includes('profile-link'));
  const publicPage = await httpRequest(noDebug.port, { path: '/boom' });
  t.is(publicPage.status, 500);
  t.false(publicPage.body.includes('profile-link'));
});
