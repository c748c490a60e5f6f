import test from 'ava';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { type CliIo } from '../../../../src/cli/cli-io';
import { main } from '../../../../src/cli/main';
import { profileRequests } from './profile-requests';
import { runLoupe } from '../../../cli/run-loupe';

let server: TestServer;
let env: Record<string, string>;

/** Three requests, four profiles (the 404 renders its error page in a sub-request), stored. */
async function profileSomeRequests(): Promise<number> {
  await profileRequests(server, [{ path: '/config.yaml' }, { path: '/hello/anna' }, { path: '/hello/bob' }]);
  return (await server.profiler?.storage.count()) ?? 0;
}

/** A terminal answering `answer` to the question, which it records. */
function terminal(answer: boolean): CliIo & { output: string; questions: string[] } {
  const io = {
    env: { ...process.env, ...env },
    output: '',
    questions: [] as string[],
    interactive: true,
    out: (text: string) => {
      io.output += text;
    },
    err: (text: string) => {
      io.output += text;
    },
    confirm: async (question: string) => {
      io.questions.push(question);
      return answer;
    },
  };
  return io;
}

test.before(async () => {
  server = await startTestServer();
  env = { REDIS_PREFIX: server.config.redis.prefix };
  if (server.profiler === null) throw new Error('The test server runs without its profiler.');
});

test.after.always(async () => {
  await server?.close();
});

test.serial('profiler:purge without --force refuses when nobody can confirm (exit code 2), deleting nothing', async (t) => {
  const count = await profileSomeRequests();
  t.is(count, 4);
  const run = await runLoupe(['profiler:purge'], env);
  t.is(run.code, 2);
  t.is(run.stdout, '');
  t.regex(run.stderr, /standard input is not a terminal.*--force/);
  t.is(await server.profiler?.storage.count(), count);
});

test.serial('profiler:purge on a terminal asks first; "no" deletes nothing (exit code 1)', async (t) => {
  const count = (await server.profiler?.storage.count()) ?? 0;
  t.true(count > 0);
  const io = terminal(false);
  t.is(await main(['profiler:purge'], io), 1);
  t.deepEqual(io.questions, [`Delete all ${count} profiles under the prefix "${server.config.redis.prefix}" at ${server.config.redis.url}? [y/N] `]);
  t.regex(io.output, /nothing was deleted/);
  t.is(await server.profiler?.storage.count(), count);
});

test.serial('profiler:purge on a terminal deletes every profile once confirmed', async (t) => {
  const count = (await server.profiler?.storage.count()) ?? 0;
  const io = terminal(true);
  t.is(await main(['profiler:purge'], io), 0);
  t.is(io.questions.length, 1);
  t.is(io.output, `Purged ${count} profiles under the prefix "${server.config.redis.prefix}".\n`);
  t.is(await server.profiler?.storage.count(), 0);
});

test.serial('profiler:purge --force deletes every profile and says how many; list is then empty', async (t) => {
  const count = await profileSomeRequests();
  const [newest] = (await server.profiler?.storage.find({ limit: 1 })) ?? [];
  t.is(count, 4);
  const run = await runLoupe(['profiler:purge', '--force'], env);
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, `Purged ${count} profiles under the prefix "${server.config.redis.prefix}".\n`);
  t.is(await server.profiler?.storage.count(), 0);
  t.is((await runLoupe(['profiler:list'], env)).stdout, 'No profiles found.\n');
  const show = await runLoupe(['profiler:show', newest?.token ?? 'abcdef'], env);
  t.is(show.code, 1);
  t.regex(show.stderr, /not found/);
});

test.serial('profiler:purge --force leaves other prefixes alone', async (t) => {
  const count = await profileSomeRequests();
  const run = await runLoupe(['profiler:purge', '--force', '--prefix', `${server.config.redis.prefix}other:`], env);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^Purged 0 profiles/);
  t.is(await server.profiler?.storage.count(), count);
});
