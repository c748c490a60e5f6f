import test from 'ava';
import { CliError } from '../../src/cli/cli-error';
import { parseCommandArgs, splitCommand } from '../../src/cli/parse-command-args';

test('splitCommand finds the command after global flags and their values', (t) => {
  t.deepEqual(splitCommand(['profiler:list', '--json']), { command: 'profiler:list', rest: ['--json'] });
  t.deepEqual(splitCommand(['--prefix', 'app:', 'profiler:show', 'abc123']), { command: 'profiler:show', rest: ['--prefix', 'app:', 'abc123'] });
  t.deepEqual(splitCommand(['--redis-url', 'redis://h:1', '-h']), { command: undefined, rest: ['--redis-url', 'redis://h:1', '-h'] });
  t.deepEqual(splitCommand([]), { command: undefined, rest: [] });
});

test('parseCommandArgs reads command flags, positionals and the global flags', (t) => {
  const args = parseCommandArgs(['abc123', '--json', '--prefix', 'app:', '--redis-url=redis://h:1'], { json: { type: 'boolean' } });
  t.deepEqual(args.positionals, ['abc123']);
  t.true(args.flag('json'));
  t.false(args.help);
  t.deepEqual(args.connection, { prefix: 'app:', redisUrl: 'redis://h:1' });
  t.deepEqual(parseCommandArgs(['-h'], {}).connection, {});
  t.true(parseCommandArgs(['-h'], {}).help);
});

test('parseCommandArgs turns unknown flags and missing values into usage errors', (t) => {
  for (const argv of [['--bogus'], ['--limit'], ['--json=1']]) {
    const error = t.throws(() => parseCommandArgs(argv, { limit: { type: 'string' }, json: { type: 'boolean' } }), { instanceOf: CliError });
    t.is(error?.exitCode, 2, argv.join(' '));
  }
});
