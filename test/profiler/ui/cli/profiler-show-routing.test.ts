import test from 'ava';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { profileRequests } from './profile-requests';
import { runLoupe } from '../../../cli/run-loupe';

let server: TestServer;
let env: Record<string, string>;
let tokens = { notFound: '', notAllowed: '', hello: '' };

/** The lines of the Routing section of `profiler:show`, without their indent. */
function routingSection(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf('Routing');
  const end = lines.indexOf('', start);
  return start < 0 ? [] : lines.slice(start + 1, end < 0 ? undefined : end).map((line) => line.trim());
}

test.before(async () => {
  server = await startTestServer();
  env = { REDIS_PREFIX: server.config.redis.prefix };
  const [notFound = '', notAllowed = '', hello = ''] = await profileRequests(server, [{ path: '/it/hello/anna' }, { method: 'POST', path: '/hello/anna' }, { path: '/hello/anna' }]);
  tokens = { notFound, notAllowed, hello };
});

test.after.always(async () => {
  await server?.close();
});

// The tests run one CLI process at a time: each loads the sources in a process of its own, slow on a busy machine.

test.serial('profiler:show of a 404 lists the routes tried, the closest first and marked', async (t) => {
  const run = await runLoupe(['profiler:show', tokens.notFound], env);
  t.is(run.code, 0, run.stderr);
  const routing = routingSection(run.stdout);
  t.true(routing.includes('Routes tried for GET /it/hello/anna:'), routing.join('\n'));
  t.true(routing.includes('Closest route: hello_localized (/{_locale}/hello/{name}): Path almost matches, but Requirement for "_locale" does not match (en|fr|de)'));
  t.regex(routing.find((line) => line.startsWith('#')) ?? '', /^#\s+Route\s+Path\s+Outcome$/);
  t.true(routing.some((line) => /^\d+\s+_profiler_home\s+\/_profiler\/\s+Path does not match$/.test(line)), routing.join('\n'));
  t.true(routing.some((line) => /^> \d+\s+hello_localized\s+\/\{_locale\}\/hello\/\{name\}\s+Path almost matches, but Requirement for "_locale" does not match \(en\|fr\|de\)$/.test(line)));
  t.is(routing.filter((line) => line.startsWith('>')).length, 1);
});

test.serial('profiler:show of a 405 names the route whose method did not match', async (t) => {
  const run = await runLoupe(['profiler:show', tokens.notAllowed], env);
  t.is(run.code, 0, run.stderr);
  const routing = routingSection(run.stdout);
  t.true(routing.includes('Routes tried for POST /hello/anna:'), routing.join('\n'));
  t.true(routing.some((line) => /^> \d+\s+hello\s+\/hello\/\{name\}\s+Path almost matches, but Method "POST" does not match any of the required methods \(GET\)$/.test(line)));
});

test.serial('profiler:show of a matched request lists no routes tried', async (t) => {
  const run = await runLoupe(['profiler:show', tokens.hello], env);
  t.is(run.code, 0, run.stderr);
  const routing = routingSection(run.stdout);
  t.true(routing.includes('Route       hello'), routing.join('\n'));
  t.false(routing.some((line) => line.startsWith('Routes tried')));
});
