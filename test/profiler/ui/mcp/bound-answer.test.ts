import test from 'ava';
import { boundAnswer, MCP_ANSWER_CHARS } from '../../../../src/profiler/ui/mcp/bound-answer';

const line = (n: number): string => `line ${String(n).padStart(4, '0')} ${'.'.repeat(80)}\n`;
const lines = (count: number): string => Array.from({ length: count }, (_, n) => line(n)).join('');

test('boundAnswer leaves an answer that fits as it is', (t) => {
  const text = lines(10);
  t.is(boundAnswer(text), text);
  const exact = 'x'.repeat(MCP_ANSWER_CHARS);
  t.is(boundAnswer(exact), exact);
});

test('boundAnswer keeps the first whole lines of a longer answer and says how many lines and characters were cut', (t) => {
  const text = lines(1000);
  const bounded = boundAnswer(text);
  t.true(bounded.length <= MCP_ANSWER_CHARS);
  const [kept, marker] = [bounded.slice(0, bounded.lastIndexOf('…')), bounded.slice(bounded.lastIndexOf('…'))];
  t.true(text.startsWith(kept));
  t.true(kept.endsWith('\n'));
  const keptLines = kept.split('\n').length - 1;
  t.is(marker, `… truncated: ${1000 - keptLines} more lines (${text.length - kept.length} characters) not shown. An answer holds at most ${MCP_ANSWER_CHARS} characters: ask for less (one panel, a smaller limit, one token).\n`);
});

test('boundAnswer cuts a single line longer than the bound where the room ends', (t) => {
  const bounded = boundAnswer('y'.repeat(50_000), 1000);
  t.true(bounded.length <= 1000);
  t.regex(bounded, /^y+\n… truncated: 1 more line \(\d+ characters\) not shown\./);
});
