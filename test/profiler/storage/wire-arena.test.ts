import test from 'ava';
import { WireArena } from '../../../src/profiler/storage/wire-arena';

const HEADER = '*7\r\n$4\r\ntest\r\n';

test('a block is the four arguments as RESP bulk strings, lengths in bytes; a command is its header followed by its blocks', (t) => {
  const wire = new WireArena();
  const first = wire.encode('abc123', 1795933129783, '{"url":"/été"}', '{"a":"€"}');
  const second = wire.encode('abc124', 7, '{}', Buffer.from('[1]'));
  t.is(first.jsonBytes().toString(), '{"a":"€"}');
  const command = wire.command(HEADER, [first, second]);
  t.is(
    command.bytes.toString(),
    `${HEADER}$6\r\nabc123\r\n$13\r\n1795933129783\r\n$16\r\n{"url":"/été"}\r\n$11\r\n{"a":"€"}\r\n` + '$6\r\nabc124\r\n$1\r\n7\r\n$2\r\n{}\r\n$3\r\n[1]\r\n',
  );
});

test('a command answered gives its buffer back for the next; one that failed does not (its socket may still be sending it)', (t) => {
  const wire = new WireArena();
  const answered = wire.command(HEADER, [wire.encode('000001', 1, '{}', 'x'.repeat(1000))]);
  answered.done(true);
  const next = wire.command(HEADER, [wire.encode('000002', 2, '{}', 'y'.repeat(1000))]);
  t.is(next.bytes.buffer, answered.bytes.buffer, 'the answered command’s buffer is reused');
  next.done(false);
  const after = wire.command(HEADER, [wire.encode('000003', 3, '{}', 'z'.repeat(1000))]);
  t.not(after.bytes.buffer, next.bytes.buffer, 'a failed command’s buffer is never written again');
  t.true(after.bytes.toString().endsWith(`${'z'.repeat(1000)}\r\n`));
  t.true(next.bytes.toString().endsWith(`${'y'.repeat(1000)}\r\n`), 'the failed command’s bytes are left as they were');
});

test('blocks keep their bytes until they go into a command, however many are encoded after them', (t) => {
  const wire = new WireArena();
  // 3 MB of profiles: more than one pooled buffer, the first ones kept waiting.
  const blocks = Array.from({ length: 1_500 }, (_, i) => wire.encode(i.toString(16).padStart(6, '0'), i, '{}', `${i}:${'p'.repeat(2_000)}`));
  const command = wire.command(HEADER, blocks);
  const text = command.bytes.toString();
  t.true(text.startsWith(`${HEADER}$6\r\n000000\r\n$1\r\n0\r\n$2\r\n{}\r\n$2002\r\n0:pp`));
  t.is(command.bytes.length, Buffer.byteLength(HEADER) + blocks.reduce((sum, block) => sum + block.end - block.start, 0));
  t.true(text.includes(`$6\r\n0005db\r\n$4\r\n1499\r\n$2\r\n{}\r\n$2005\r\n1499:pp`));
});
