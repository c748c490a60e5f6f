import test from 'ava';
import { type ProfileSummary } from '../../../../src/profiler/profile';
import { httpRequest } from '../../../helpers/http-client';
import { sampleProfile } from '../../../helpers/sample-profile';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { runLoupe } from '../../../cli/run-loupe';

// The profiler panel and `loupe profiler:show` read stored profiles through the same parser:
// what one calls unreadable the other does too, in the same words.

let server: TestServer;
let env: Record<string, string>;

/** Readable, but without any collector entry. */
const ENVELOPE = sampleProfile({ token: 'b0b000' });

/** Malformed stored profiles, by token, with what is wrong with each. */
const MALFORMED: Readonly<Record<string, readonly [string, string]>> = {
  bad001: ['{"token": "bad001", "method": ', 'it is not JSON'],
  bad002: [JSON.stringify({ ...ENVELOPE, version: undefined, token: 'bad002', phases: [] }), 'it has no "version"'],
  bad003: [JSON.stringify({ ...ENVELOPE, token: 'bad003', statusCode: '200' }), 'the field "statusCode" is missing or not a number'],
  bad004: [JSON.stringify({ ...ENVELOPE, token: 'bad004', collectors: { request: ['headers'] } }), 'the entry of the collector "request" is not an object'],
};

function summary(token: string): ProfileSummary {
  return { token, parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://127.0.0.1:8000/hello', time: Date.now(), statusCode: 200 };
}

test.before(async () => {
  server = await startTestServer();
  env = { REDIS_PREFIX: server.config.redis.prefix };
  const storage = server.profiler?.storage;
  if (storage === undefined) throw new Error('The test server runs with debug: the profiler must be on.');
  await storage.write([
    ...Object.entries(MALFORMED).map(([token, [json]]) => ({ summary: summary(token), json })),
    { summary: summary('b0b000'), json: JSON.stringify(ENVELOPE) },
  ]);
});

test.after.always(async () => {
  await server?.close();
});

for (const [token, [, problem]] of Object.entries(MALFORMED)) {
  test(`${token} (${problem}): the panel's 500 and profiler:show's exit code 1 give the same message, no stack trace`, async (t) => {
    const res = await httpRequest(server.port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
    t.is(res.status, 500);
    const detail = String((JSON.parse(res.body) as { detail: unknown }).detail);
    t.true(detail.startsWith(`The profile of token "${token}" cannot be read: ${problem}`), detail);

    const run = await runLoupe(['profiler:show', token], env);
    t.is(run.code, 1);
    t.is(run.stdout, '');
    t.is(run.stderr, `${detail}\nprofiler:show --json prints it as stored.\n`);
  });
}

test('profiler:show --json prints an unreadable profile as stored', async (t) => {
  const run = await runLoupe(['profiler:show', 'bad001', '--json'], env);
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, `${MALFORMED['bad001']?.[0] ?? ''}\n`);
});

test('a profile without collector entries is readable by both: the panel and profiler:show say "no data"', async (t) => {
  const page = await httpRequest(server.port, { path: '/_profiler/b0b000?panel=logs' });
  t.is(page.status, 200);
  t.true(page.body.includes('No data: this profile holds nothing from the "logs" collector'));
  const run = await runLoupe(['profiler:show', 'b0b000'], env);
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.includes('Logs\n  (no data: no "logs" collector entry)\n'), run.stdout);
});
