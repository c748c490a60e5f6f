import test from 'ava';
import { httpRequest } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test.after.always(async () => {
  await server?.close();
});

/** Requests `path` and answers its token once its profile is stored. */
async function profiledToken(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await httpRequest(server.port, { path, headers });
  await server.profiler?.writer.whenIdle();
  const token = res.headers['x-debug-token'];
  if (typeof token !== 'string') throw new Error(`${path} was not profiled`);
  return token;
}

async function storedLocale(token: string): Promise<unknown> {
  const res = await httpRequest(server.port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
  const profile = JSON.parse(res.body) as { collectors: { request: { locale: unknown } } };
  return profile.collectors.request.locale;
}

test('the profile records the locale the request was handled in, not the default kernel.finish_request gives back', async (t) => {
  const token = await profiledToken('/fr/hello/Ada');
  t.is(await storedLocale(token), 'fr');
  const panel = await httpRequest(server.port, { path: `/_profiler/${token}?panel=request` });
  t.regex(panel.body, /<th class="key mono" scope="row">locale<\/th><td><pre>fr<\/pre><\/td>/);
});

test('a locale negotiated from Accept-Language is recorded, and the default where nothing asks for another', async (t) => {
  t.is(await storedLocale(await profiledToken('/hello/Ada', { 'Accept-Language': 'de-DE, en;q=0.5' })), 'de');
  t.is(await storedLocale(await profiledToken('/hello/Ada')), 'en');
});

test('a failing request and the error sub-request that renders it both record the request locale', async (t) => {
  const failing = await httpRequest(server.port, { path: '/boom', headers: { 'Accept-Language': 'fr' } });
  await server.profiler?.writer.whenIdle();
  t.is(failing.status, 500);
  t.is(await storedLocale(String(failing.headers['x-debug-token'])), 'fr');
  t.is(await storedLocale(String(failing.headers['x-previous-debug-token'])), 'fr');
});
