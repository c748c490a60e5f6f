import test from 'ava';
import { eventsOf } from '../../../../src/profiler/collect/collectors/events-view';
import { type Profile } from '../../../../src/profiler/profile';
import { parseProfile } from '../../../../src/profiler/profile-schema';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { profileSampleRequests } from './profile-requests';
import { runLoupe } from '../../../cli/run-loupe';

let server: TestServer;
let env: Record<string, string>;
let origin: string;
let token = { config: '', hello: '', post: '' };

type StoredJson = { children: string[]; collectors: Record<string, unknown> } & Record<string, unknown>;

async function stored(tokenToRead: string): Promise<StoredJson> {
  const found = await server.profiler?.storage.read(tokenToRead);
  if (found?.kind !== 'found') throw new Error(`No profile stored under ${tokenToRead}.`);
  return JSON.parse(found.json) as StoredJson;
}

/** The profile stored under `tokenToRead` as its readers take it. */
async function read(tokenToRead: string): Promise<Profile> {
  const found = await server.profiler?.storage.read(tokenToRead);
  const parsed = found?.kind === 'found' ? parseProfile(found.json) : null;
  if (parsed?.ok !== true) throw new Error(`No readable profile stored under ${tokenToRead}.`);
  return parsed.profile;
}

/** The lines of one section of `profiler:show`, without their indent. */
function section(stdout: string, title: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end).map((line) => line.trim());
}

test.before(async () => {
  server = await startTestServer();
  env = { REDIS_PREFIX: server.config.redis.prefix };
  origin = `http://127.0.0.1:${server.port}`;
  token = await profileSampleRequests(server);
});

test.after.always(async () => {
  await server?.close();
});

test('profiler:show TOKEN of a 404 shows the summary, the error chain and the phases in order', async (t) => {
  const run = await runLoupe(['profiler:show', token.config], env);
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.startsWith(`Profile ${token.config} (main request)\n`));
  const summary = section(run.stdout, 'Summary');
  t.true(summary.includes(`URL       ${origin}/config.yaml`), summary.join('\n'));
  t.true(summary.includes('Status    404 Not Found'));
  t.true(summary.includes('Method    GET'));
  t.true(summary.includes('IP        127.0.0.1'));
  const profile = await stored(token.config);
  t.true(summary.includes(`Children  ${profile.children.join(', ')}`));
  t.is(profile.children.length, 1);

  const errors = section(run.stdout, 'Errors');
  t.is(errors[0], '1) NotFoundHttpError [LOUPE_ERR_HTTP_NOT_FOUND]: 404 Not Found');
  t.is(errors[1], `No route found for "GET ${origin}/config.yaml"`);
  t.regex(errors[2] ?? '', /^at \S+ \(.*router-listener\.ts:\d+:\d+\)$/);
  const cause = errors.indexOf('Caused by: ResourceNotFoundError [LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND]: 404 Not Found');
  t.true(cause > 0, errors.join('\n'));
  t.is(errors[cause + 1], 'No routes found for "/config.yaml/".');

  const phases = section(run.stdout, 'Phases').map((line) => line.split(/\s+/)[0]);
  t.deepEqual(phases, ['kernel.request', 'kernel.exception', 'kernel.response', 'kernel.finish_request', 'kernel.terminate']);
  t.deepEqual(phases, (eventsOf(await read(token.config))?.phases ?? []).map((phase) => phase.name));
  t.true(section(run.stdout, 'Phases').every((line) => /\+\d+\.\d+ m?s\s+\d+\.\d+ m?s\s+\|[ #]+\|$/.test(line)));

  const listeners = section(run.stdout, 'Listeners');
  t.true(listeners.some((line) => /^32\s+RouterListener\s+\d+\.\d+ m?s$/.test(line)), listeners.join('\n'));
  t.true(listeners.indexOf('kernel.request') < listeners.indexOf('kernel.exception'));
  t.true(section(run.stdout, 'Routing').includes(`Failure     No route found for "GET ${origin}/config.yaml"`));
  t.true(section(run.stdout, 'Logs').some((line) => /INFO\s+No route matched\./.test(line)));
  t.true(section(run.stdout, 'Request headers').includes(`host: 127.0.0.1:${server.port}`));
  t.true(section(run.stdout, 'Response headers').includes(`X-Debug-Token: ${token.config}`));
});

test('profiler:show of a routed request shows its route, parameters and phases, the controller\'s state among them', async (t) => {
  const run = await runLoupe(['profiler:show', token.hello], env);
  t.is(run.code, 0, run.stderr);
  t.true(section(run.stdout, 'Summary').includes('Status    200 OK'));
  const routing = section(run.stdout, 'Routing');
  t.true(routing.includes('Route       hello'), routing.join('\n'));
  t.regex(routing.find((line) => line.startsWith('Params')) ?? '', /name=anna/);
  t.deepEqual(section(run.stdout, 'Errors'), ['(none)']);
  const phases = section(run.stdout, 'Phases').map((line) => line.split(/\s+/)[0]);
  t.deepEqual(phases.filter((name) => name !== 'controller'), (eventsOf(await read(token.hello))?.phases ?? []).map((phase) => phase.name));
  t.true(phases.indexOf('kernel.request') < phases.indexOf('kernel.controller'));
  // The controller's own state, where the application's code ran, between the arguments and the response.
  t.true(phases.indexOf('kernel.controller_arguments') < phases.indexOf('controller') && phases.indexOf('controller') < phases.indexOf('kernel.response'), phases.join(', '));
});

test('profiler:show of a sub-request names its parent', async (t) => {
  const [child = ''] = (await stored(token.config)).children;
  const run = await runLoupe(['profiler:show', child], env);
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.startsWith(`Profile ${child} (sub-request)\n`));
  t.true(section(run.stdout, 'Summary').includes(`Parent    ${token.config}`));
  // Its profile refers to the error its parent's records; shown, it is the same error chain.
  t.deepEqual((await stored(child)).collectors['exception'], { errors: [{ sameAs: { profile: token.config, index: 0 } }] });
  const parent = await runLoupe(['profiler:show', token.config], env);
  const errors = section(run.stdout, 'Errors');
  t.is(errors[0], '1) NotFoundHttpError [LOUPE_ERR_HTTP_NOT_FOUND]: 404 Not Found');
  t.deepEqual(errors, section(parent.stdout, 'Errors'));
});

test('profiler:show latest shows the newest main request', async (t) => {
  const run = await runLoupe(['profiler:show', 'latest'], env);
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.startsWith(`Profile ${token.post} (main request)\n`));
  t.true(section(run.stdout, 'Summary').includes('Status    405 Method Not Allowed'));
});

test('profiler:show --json prints the stored profile', async (t) => {
  const run = await runLoupe(['profiler:show', token.config, '--json'], env);
  t.is(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as Record<string, unknown>;
  t.is(printed['token'], token.config);
  t.deepEqual(printed, await stored(token.config));
  t.true(run.stdout.startsWith('{\n  "version": 2,\n  "token"'), 'pretty-printed');
});

test('profiler:show of an unknown token fails with exit code 1', async (t) => {
  const unknown = ['ffffff', 'fffffe'].find((candidate) => !Object.values(token).includes(candidate)) ?? 'ffffff';
  const run = await runLoupe(['profiler:show', unknown], env);
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.is(run.stderr, `Token "${unknown}" not found.\n`);
});

test('profiler:show of a dropped token says it was dropped and why', async (t) => {
  await server.profiler?.storage.markDropped(['d00d00'], 'Redis did not answer within 2000 ms');
  const run = await runLoupe(['profiler:show', 'd00d00'], env);
  t.is(run.code, 1);
  t.regex(run.stderr, /^Token "d00d00" was dropped: .*\(Redis did not answer within 2000 ms\)\.\n$/);
});

test('profiler:show latest with no profile under the prefix fails with exit code 1', async (t) => {
  const run = await runLoupe(['profiler:show', 'latest'], { REDIS_PREFIX: `${server.config.redis.prefix}empty:` });
  t.is(run.code, 1);
  t.regex(run.stderr, /No profile is stored under the prefix/);
});

for (const args of [[], ['abc123', 'extra'], ['--bogus', 'abc123']]) {
  test(`profiler:show ${args.length === 0 ? '(no token)' : args.join(' ')} is a usage error`, async (t) => {
    const run = await runLoupe(['profiler:show', ...args], env);
    t.is(run.code, 2);
    t.regex(run.stderr, /Usage: loupe profiler:show TOKEN/);
  });
}
