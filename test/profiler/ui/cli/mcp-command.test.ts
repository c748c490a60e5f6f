import test from 'ava';
import { runMain } from '../../../cli/run-loupe';

// `loupe mcp` as the CLI knows it; the server itself is tested over stdio in test/profiler/ui/mcp/.

const loaded = (name: string): boolean => Object.keys(require.cache).some((file) => file.includes(`/node_modules/${name}/`));

test('loupe --help lists mcp, and loupe help mcp gives the agent configuration snippet', async (t) => {
  const usage = await runMain(['--help']);
  t.is(usage.code, 0);
  t.regex(usage.stdout, /\n {2}mcp +serve the stored profiles to a coding agent \(Model Context Protocol on stdio; read-only\)\n/);
  const help = await runMain(['help', 'mcp']);
  t.is(help.code, 0);
  t.true(help.stdout.includes('{"mcpServers":{"loupe":{"command":"npx","args":["loupe","mcp"],"env":{"REDIS_URL":"redis://127.0.0.1:6379"}}}}'));
});

test.serial('running any other command loads neither the MCP SDK nor zod: they are loaded when mcp runs', async (t) => {
  await runMain(['--help']);
  await runMain(['profiler:list', '--limit', '1']);
  t.false(loaded('@modelcontextprotocol/sdk'));
  t.false(loaded('zod'));
});

test('loupe mcp takes no arguments, and needs standard input and output as streams', async (t) => {
  const extra = await runMain(['mcp', 'now']);
  t.is(extra.code, 2);
  t.regex(extra.stderr, /^mcp takes no arguments, got "now"\./);
  const noStreams = await runMain(['mcp']);
  t.is(noStreams.code, 1);
  t.is(noStreams.stderr, 'loupe mcp speaks on standard input and output, and this CLI was given none.\n');
});
