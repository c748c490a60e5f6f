import test from 'ava';
import { type LiveSummary } from '../../../../src/profiler/ui/live/live-summary';
import { ParentFirst } from '../../../../src/profiler/ui/live/parent-first';

const summary = (token: string, parent: string | null = null): LiveSummary => ({
  token,
  method: 'GET',
  path: '/',
  ip: '127.0.0.1',
  url: 'http://localhost/',
  status: 200,
  durationMs: 1,
  time: 0,
  sub: parent !== null,
  parent,
  aborted: false,
});

test('a sub-request announced before its parent, in the same message or an earlier one, is passed on right after it', (t) => {
  const seen: string[] = [];
  const ordered = new ParentFirst((s) => seen.push(s.token), 60_000);
  ordered.push([summary('bbbbbb', 'aaaaaa'), summary('aaaaaa')]);
  ordered.push([summary('dddddd', 'cccccc')]);
  ordered.push([summary('eeeeee'), summary('cccccc')]);
  t.deepEqual(seen, ['aaaaaa', 'bbbbbb', 'eeeeee', 'cccccc', 'dddddd']);
});

test('a sub-request whose parent never comes is passed on after the hold, or when the list ends', async (t) => {
  const seen: string[] = [];
  const ordered = new ParentFirst((s) => seen.push(s.token), 20);
  ordered.push([summary('bbbbbb', 'aaaaaa')]);
  t.deepEqual(seen, []);
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.deepEqual(seen, ['bbbbbb']);
  ordered.push([summary('dddddd', 'cccccc')]);
  ordered.flush();
  t.deepEqual(seen, ['bbbbbb', 'dddddd']);
});
