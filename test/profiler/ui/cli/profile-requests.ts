import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest, type HttpRequestOptions } from '../../../helpers/http-client';
import { type TestServer } from '../../../helpers/test-server';

const TIMEOUT_MS = 5_000;

async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${TIMEOUT_MS} ms.`);
    await sleep(5);
  }
}

/**
 * Sends `requests` one after the other and answers their X-Debug-Tokens once their profiles,
 * and those of their sub-requests, are stored. Two races make `whenIdle()` alone not enough:
 * right after start the writer's Redis connection may not be ready yet (a request then gets no
 * token), and the client has its response before kernel.terminate hands the profile to the writer.
 */
export async function profileRequests(server: Pick<TestServer, 'port' | 'profiler'>, requests: readonly HttpRequestOptions[]): Promise<string[]> {
  const { profiler } = server;
  if (profiler === null) throw new Error('The test server runs without its profiler.');
  await until('The profile writer was not available', () => profiler.writer.isAvailable);
  const tokens: string[] = [];
  for (const request of requests) {
    const res = await httpRequest(server.port, request);
    const token = res.headers['x-debug-token'];
    if (typeof token !== 'string') throw new Error(`${request.method ?? 'GET'} ${request.path} got no X-Debug-Token.`);
    tokens.push(token);
    // A few milliseconds apart, so that "newest first" has one right answer.
    await sleep(5);
  }
  const pending = new Set(tokens);
  await until(`Profiles ${tokens.join(', ')} were not all stored`, async () => {
    await profiler.writer.whenIdle();
    for (const token of [...pending]) {
      const found = await profiler.storage.read(token);
      if (found.kind !== 'found') continue;
      pending.delete(token);
      const { children } = JSON.parse(found.json) as { children?: unknown };
      if (Array.isArray(children)) for (const child of children) if (typeof child === 'string') pending.add(child);
    }
    return pending.size === 0;
  });
  return tokens;
}

/**
 * The requests the `profiler:list` and `profiler:show` tests read back, profiled in this order:
 * a 404 (`GET /config.yaml`, with an error sub-request), a 200 (`GET /hello/anna`) and a 405
 * (`POST /hello/anna`, with an error sub-request). Answers their tokens.
 */
export async function profileSampleRequests(server: TestServer): Promise<{ config: string; hello: string; post: string }> {
  const [config = '', hello = '', post = ''] = await profileRequests(server, [
    { path: '/config.yaml' },
    { path: '/hello/anna' },
    { method: 'POST', path: '/hello/anna' },
  ]);
  return { config, hello, post };
}
