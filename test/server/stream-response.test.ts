import { createHash } from 'node:crypto';
import http from 'node:http';
import { Readable, Writable } from 'node:stream';
import test from 'ava';
import { createLogger, createLoupe, LoupeResponse, type Controller, type Loupe, type StreamBody } from '../../src';
import { parseProfile } from '../../src/profiler/profile-schema';
import { httpRequest } from '../helpers/http-client';
import { entries } from '../helpers/profile-entries';
import { deleteKeys, redisConfigOf, testConfig } from '../helpers/test-server';

const KIB = 1024;
const MIB = 1024 * KIB;

/** What the sources of the test do, counted: how many were cleaned up (destroyed, cancelled, returned). */
const cleanups = { readable: 0, iterable: 0, web: 0 };

/** `count` chunks of `size` bytes, each a fresh buffer: held anywhere, they would show in the RSS. */
async function* chunks(count: number, size: number): AsyncGenerator<Buffer> {
  for (let index = 0; index < count; index++) yield Buffer.alloc(size, 97 + (index % 26));
}

/** Chunks without end, noting when the iterator's return() ran its finally. */
async function* endlessChunks(): AsyncGenerator<Buffer> {
  try {
    for (;;) yield Buffer.alloc(64 * KIB, 'x');
  } finally {
    cleanups.iterable += 1;
  }
}

function endlessReadable(): Readable {
  return new Readable({
    read() {
      this.push(Buffer.alloc(64 * KIB, 'y'));
    },
    destroy(error, callback) {
      cleanups.readable += 1;
      callback(error);
    },
  });
}

function endlessWebStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new Uint8Array(64 * KIB).fill(122)),
    cancel: () => {
      cleanups.web += 1;
    },
  });
}

const SOURCES: Readonly<Record<string, () => StreamBody>> = {
  readable: () => Readable.from(['one,', 'two,', Buffer.from('three')]),
  iterable: () =>
    (async function* () {
      yield 'one,';
      await new Promise((resolve) => setImmediate(resolve));
      yield Buffer.from('two,');
      yield new TextEncoder().encode('three');
    })(),
  web: () =>
    new ReadableStream<Uint8Array | string>({
      start: (controller) => {
        controller.enqueue('one,');
        controller.enqueue(new TextEncoder().encode('two,three'));
        controller.close();
      },
    }),
  'endless-readable': endlessReadable,
  'endless-iterable': endlessChunks,
  'endless-web': endlessWebStream,
};

let headSourceDestroyed = false;
const logLines: string[] = [];

const controllers: Controller[] = [
  { name: 'source', handle: ({ params }) => new LoupeResponse(SOURCES[params['kind'] ?? '']?.() ?? 'unknown', 200, { 'Content-Type': 'text/plain' }) },
  { name: 'big', handle: ({ request }) => new LoupeResponse(chunks(Number(request.queryParams.get('mib')) * 16, 64 * KIB), 200, { 'Content-Type': 'application/octet-stream' }) },
  {
    name: 'sized-big',
    handle: ({ request }) => {
      const mib = Number(request.queryParams.get('mib'));
      return new LoupeResponse(chunks(mib * 16, 64 * KIB), 200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(mib * MIB) });
    },
  },
  { name: 'sized', handle: () => new LoupeResponse(Readable.from([Buffer.from('0123456789'), Buffer.from('abcdef')]), 200, { 'Content-Type': 'text/plain', 'Content-Length': '16' }) },
  {
    name: 'head',
    handle: () => {
      const stream = new Readable({ read: () => undefined, destroy: (error, callback) => ((headSourceDestroyed = true), callback(error)) });
      return new LoupeResponse(stream, 200, { 'Content-Type': 'text/plain', 'Content-Length': '42' });
    },
  },
  {
    name: 'failing',
    handle: () =>
      new LoupeResponse(
        (async function* () {
          yield Buffer.alloc(256 * KIB, 'f');
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error('the export query failed half-way');
        })(),
        200,
        { 'Content-Type': 'text/csv' },
      ),
  },
  { name: 'page', handle: () => new LoupeResponse(Readable.from(['<html><body>', '<p>streamed</p>', '</body></html>']), 200, { 'Content-Type': 'text/html; charset=UTF-8' }) },
];

let app: Loupe;
let port: number;

test.before(async () => {
  const config = testConfig();
  const lines = new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString()), done()) });
  app = createLoupe({
    config,
    logger: createLogger({ level: 'info', format: 'json' }, lines),
    routes: [
      { name: 'source', path: '/source/{kind}', methods: ['GET', 'HEAD'], controller: controllers[0] as Controller },
      { name: 'big', path: '/big', methods: ['GET'], controller: controllers[1] as Controller },
      { name: 'sized_big', path: '/sized-big', methods: ['GET'], controller: controllers[2] as Controller },
      { name: 'sized', path: '/sized', methods: ['GET'], controller: controllers[3] as Controller },
      { name: 'head', path: '/head', methods: ['GET', 'HEAD'], controller: controllers[4] as Controller },
      { name: 'failing', path: '/failing', methods: ['GET'], controller: controllers[5] as Controller },
      { name: 'page', path: '/page', methods: ['GET'], controller: controllers[6] as Controller },
    ],
  });
  ({ port } = await app.listen());
});

test.after.always(async () => {
  await app.close();
  await deleteKeys(redisConfigOf(app.config).url, redisConfigOf(app.config).prefix);
});

/** The stored profile of `token`, once written (the body's end, or its abort, comes before kernel.terminate). */
async function profileOf(token: unknown): Promise<ReturnType<typeof entries> & { aborted: boolean }> {
  if (typeof token !== 'string') throw new Error(`No token: ${String(token)}`);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    await app.profiler?.writer.whenIdle();
    const res = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
    if (res.status !== 200) continue;
    const parsed = parseProfile(res.body);
    if (!parsed.ok) throw new Error(parsed.error);
    return Object.assign(entries(parsed.profile), { aborted: parsed.profile.aborted });
  }
  throw new Error(`Profile ${token} was not stored within 10 s.`);
}

for (const kind of ['readable', 'iterable', 'web']) {
  test(`a ${kind} body is streamed chunked, whole, with the kernel's headers`, async (t) => {
    const res = await httpRequest(port, { path: `/source/${kind}` });
    t.is(res.status, 200);
    t.is(res.body, 'one,two,three');
    t.is(res.headers['transfer-encoding'], 'chunked');
    t.is(res.headers['content-length'], undefined);
    t.is(res.headers['content-type'], 'text/plain; charset=UTF-8');
    t.regex(String(res.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  });
}

test('a streamed body whose application set a Content-Length is sent with it, not chunked', async (t) => {
  const res = await httpRequest(port, { path: '/sized' });
  t.is(res.body, '0123456789abcdef');
  t.is(res.headers['content-length'], '16');
  t.is(res.headers['transfer-encoding'], undefined);
});

test('a large streamed body with a Content-Length reaches a slow reader whole and in order (tryEnd resumed from onWritable)', async (t) => {
  const expected = createHash('sha256');
  for await (const chunk of chunks(32 * 16, 64 * KIB)) expected.update(chunk);
  const received = await new Promise<{ hash: string; length: string | undefined; bytes: number }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/sized-big?mib=32', agent: false }, (res) => {
        const hash = createHash('sha256');
        let bytes = 0;
        let sincePause = 0;
        res.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
          sincePause += chunk.length;
          if (sincePause >= 4 * MIB) {
            sincePause = 0;
            res.pause();
            setTimeout(() => res.resume(), 30);
          }
        });
        res.on('end', () => resolve({ hash: hash.digest('hex'), length: res.headers['content-length'], bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  t.is(received.length, String(32 * MIB));
  t.is(received.bytes, 32 * MIB);
  t.is(received.hash, expected.digest('hex'));
});

test('HEAD of a streamed body sends the head alone and destroys the source', async (t) => {
  const res = await httpRequest(port, { method: 'HEAD', path: '/head' });
  t.is(res.status, 200);
  t.is(res.body, '');
  t.is(res.headers['content-length'], '42');
  t.true(headSourceDestroyed);
});

test('a streamed HTML page gets no toolbar: it is not held back to find its </body>', async (t) => {
  const res = await httpRequest(port, { path: '/page' });
  t.is(res.body, '<html><body><p>streamed</p></body></html>');
  t.truthy(res.headers['x-debug-token']);
});

test('inject reads a streamed body to its end', async (t) => {
  const res = await app.inject({ url: '/source/iterable' });
  t.is(res.status, 200);
  t.is(res.body, 'one,two,three');
  t.is(res.headers['content-length'], undefined);
  const head = await app.inject({ method: 'HEAD', url: '/source/web' });
  t.is(head.body, '');
  await t.throwsAsync(app.inject({ url: '/failing' }), { message: 'the export query failed half-way' });
});

test("the profile of a streamed response has its bytes, time to first byte and last byte, and the response panel and the Performance panel say so", async (t) => {
  const res = await httpRequest(port, { path: '/big?mib=2' });
  t.is(Buffer.byteLength(res.body), 2 * MIB);
  const token = res.headers['x-debug-token'];
  const { request, machine, aborted } = await profileOf(token);
  const body = request.response.body;
  if (body === undefined || !body.streamed) return t.fail(`No streamed body in the profile: ${JSON.stringify(body)}`);
  t.is(body.bytes, 2 * MIB);
  t.false(body.aborted);
  t.false(aborted);
  t.true(body.firstByteMs !== null && body.firstByteMs > 0 && body.firstByteMs <= body.lastByteMs);
  t.true(machine.states.some((state) => state.name === 'streaming'));
  const panel = await httpRequest(port, { path: `/_profiler/${String(token)}?panel=request` });
  t.true(panel.body.includes(`streamed, ${2 * MIB} bytes`));
  const performance = await httpRequest(port, { path: `/_profiler/${String(token)}?panel=time` });
  t.regex(performance.body, /first byte after <span class="first-byte">/);
  // A body written whole has its size too.
  const plain = await httpRequest(port, { path: '/source/unknown-kind' });
  t.is(plain.body, 'unknown');
  const { request: plainRequest } = await profileOf(plain.headers['x-debug-token']);
  t.deepEqual(plainRequest.response.body, { streamed: false, bytes: 7 });
});

/** Reads `path` to its end, pausing `pauseMs` after every `pauseEvery` bytes, while sampling this process's RSS; answers the bytes read and the largest RSS growth seen. */
function readSampling(path: string, pauseEvery: number, pauseMs: number): Promise<{ bytes: number; growth: number; chunked: boolean }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let bytes = 0;
        let sincePause = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          sincePause += chunk.length;
          if (pauseMs > 0 && sincePause >= pauseEvery) {
            sincePause = 0;
            res.pause();
            setTimeout(() => res.resume(), pauseMs);
          }
        });
        res.on('end', () => {
          clearInterval(sampler);
          resolve({ bytes, growth: peak - baseline, chunked: res.headers['transfer-encoding'] === 'chunked' });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

test.serial('200 MB streamed from a generator to a fast reader and to a slow one: the RSS stays far below the body (backpressure)', async (t) => {
  const fast = await readSampling('/big?mib=200', 0, 0);
  t.is(fast.bytes, 200 * MIB);
  t.true(fast.chunked);
  t.true(fast.growth < 100 * MIB, `the RSS grew by ${Math.round(fast.growth / MIB)} MiB`);
  // A reader that stops for 40 ms after every 8 MiB: uWS's buffer fills, the generator must wait.
  const slow = await readSampling('/big?mib=200', 8 * MIB, 40);
  t.is(slow.bytes, 200 * MIB);
  t.log(`RSS growth: ${Math.round(fast.growth / MIB)} MiB with the fast reader, ${Math.round(slow.growth / MIB)} MiB with the slow one`);
  t.true(slow.growth < 100 * MIB, `the RSS grew by ${Math.round(slow.growth / MIB)} MiB`);
});

/** Starts reading `path`, and goes away once `after` bytes came; answers the response's debug token. */
function readThenLeave(path: string, after: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes >= after) {
          req.destroy();
          resolve(String(res.headers['x-debug-token']));
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !check(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) throw new Error(`Not within 10 s: ${what}`);
  }
}

test.serial('a client that goes away mid-stream: the source is destroyed or cancelled, nothing leaks, the profile says aborted, the server serves on', async (t) => {
  const kinds = ['readable', 'iterable', 'web'] as const;
  const before = { ...cleanups };
  let token = '';
  for (let round = 0; round < 20; round++) {
    const kind = kinds[round % kinds.length] ?? 'readable';
    token = await readThenLeave(`/source/endless-${kind}`, 4 * MIB);
    await until(() => cleanups[kind] > before[kind] + Math.floor(round / kinds.length), `the ${kind} source of round ${round} is cleaned up`);
  }
  t.deepEqual(
    { readable: cleanups.readable - before.readable, iterable: cleanups.iterable - before.iterable, web: cleanups.web - before.web },
    { readable: 7, iterable: 7, web: 6 },
  );
  await until(() => app.activeRequests === 0, 'no request left in flight');
  const next = await httpRequest(port, { path: '/source/readable' });
  t.is(next.body, 'one,two,three');
  const { request, aborted } = await profileOf(token);
  t.true(aborted);
  const body = request.response.body;
  t.true(body !== undefined && body.streamed && body.aborted && body.bytes >= 4 * MIB);
});

test('a source that fails mid-stream: the connection is closed, the error logged and in the profile, the server serves on', async (t) => {
  const outcome = await new Promise<{ bytes: number; token: string; error: string }>((resolve) => {
    http.get({ host: '127.0.0.1', port, path: '/failing', agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('error', (error) => resolve({ bytes, token: String(res.headers['x-debug-token']), error: error.message }));
      res.on('end', () => resolve({ bytes, token: String(res.headers['x-debug-token']), error: 'none: the body ended' }));
    });
  });
  t.is(outcome.error, 'aborted');
  t.is(outcome.bytes, 256 * KIB);
  const { request, logs } = await profileOf(outcome.token);
  t.like(request.response.body ?? {}, { streamed: true, failed: true, bytes: 256 * KIB });
  t.true(logs.records.some((log) => log.level === 'error' && log.message.startsWith('The streamed body failed after')));
  await until(() => logLines.some((line) => line.includes('the export query failed half-way')), 'the error is logged');
  const line = JSON.parse(logLines.find((entry) => entry.includes('/failing')) ?? '{}') as { level?: number; msg?: string };
  t.is(line.level, 50);
  t.regex(line.msg ?? '', /body failed after 262144 bytes/);
  t.is((await httpRequest(port, { path: '/source/web' })).body, 'one,two,three');
});
