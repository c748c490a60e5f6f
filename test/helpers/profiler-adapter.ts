import http from 'node:http';
import { type ExecutionContext } from 'ava';
import { type StartedProfiler } from '../../src/profiler/core/start-profiler';
import { type Profile } from '../../src/profiler/profile';
import { parseProfile } from '../../src/profiler/profile-schema';
import { httpRequest } from './http-client';

/** The stored profile of `token` (an `X-Debug-Token` header), once the profiler's writer has stored it. */
export async function storedProfile(profiler: StartedProfiler, token: unknown): Promise<Profile> {
  if (typeof token !== 'string') throw new Error('No X-Debug-Token.');
  for (let attempt = 0; attempt < 200; attempt++) {
    await profiler.writer.whenIdle();
    const found = await profiler.storage.read(token);
    if (found.kind === 'found') {
      const parsed = parseProfile(found.json);
      if (parsed.ok) return parsed.profile;
      throw new Error(parsed.error);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The profile ${token} was not stored.`);
}

/**
 * What every adapter's server must answer of the profiler's pages, for the profile of its
 * `/page`: the profile page (unprofiled), its JSON, HEAD, the toolbar's content, the home's
 * redirect, and a 403 for a Host not allowed (DNS rebinding).
 */
export async function checkProfilerPages(t: ExecutionContext, port: number): Promise<void> {
  const page = await httpRequest(port, { path: '/page' });
  const token = String(page.headers['x-debug-token']);
  let panel = await httpRequest(port, { path: `/_profiler/${token}` });
  for (let attempt = 0; attempt < 50 && panel.status === 404; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    panel = await httpRequest(port, { path: `/_profiler/${token}` });
  }
  t.is(panel.status, 200);
  t.true(panel.body.includes('/page'));
  t.is(panel.headers['x-debug-token'], undefined, 'the pages are not profiled');
  const json = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
  t.is((JSON.parse(json.body) as { token: string }).token, token);
  const head = await httpRequest(port, { method: 'HEAD', path: `/_profiler/${token}` });
  t.is(head.status, 200);
  const toolbar = await httpRequest(port, { path: `/_wdt/${token}` });
  t.is(toolbar.status, 200);
  const home = await httpRequest(port, { path: '/_profiler/' });
  t.is(home.status, 302);
  const refused = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Host: 'rebound.example' } });
  t.is(refused.status, 403);
}

/** Asks `path` and leaves after 100 ms, before the answer; resolves with the profile the server stored for it. */
export async function abandonedProfile(profiler: StartedProfiler, port: number, path: string): Promise<Profile | undefined> {
  const before = new Set((await profiler.storage.find({ limit: 50 })).map((row) => row.token));
  await new Promise<void>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path });
    req.on('error', () => resolve());
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 100);
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    await profiler.writer.whenIdle();
    const [row] = (await profiler.storage.find({ limit: 50 })).filter((found) => !before.has(found.token) && found.url.endsWith(path));
    if (row !== undefined) return storedProfile(profiler, row.token);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}
