import test from 'ava';
import { accountTimeline } from '../../../src/profiler/ui/account-timeline';
import { type TimelineSpan } from '../../../src/profiler/collect/collectors/timeline-collector';

const span = (name: string, category: TimelineSpan['category'], start: number, duration: number, parent = -1, depth = 0): TimelineSpan => ({ name, category, start, duration, parent, depth });

test('self time is what a span\'s children leave uncovered; the states\' self time and the gaps are unaccounted', (t) => {
  const spans = [
    span('kernel.request', 'phase', 1, 3),
    span('Router', 'listener', 1.5, 1, 0, 1),
    span('Firewall', 'listener', 2, 1, 0, 1), // overlaps the router: covered once
    span('controller', 'phase', 4, 10),
    span('Slow', 'controller', 4.5, 9, 3, 1),
    span('db', 'app', 5, 4, 4, 2),
  ];
  const { rows, unaccounted, total } = accountTimeline({ total: 15, spans, droppedSpans: 0 });
  t.is(total, 15);
  t.deepEqual(
    rows.map(({ span: { name }, depth, self }) => [name, depth, self]),
    [
      ['kernel.request', 0, 1.5],
      ['Router', 1, 1],
      ['Firewall', 1, 1],
      ['controller', 0, 1],
      ['Slow', 1, 5],
      ['db', 2, 4],
    ],
  );
  // 1 ms before the first state, 1 ms after the last, and the two states' own 1.5 + 1 ms.
  t.is(unaccounted, 4.5);
});

test('children are drawn by start under their parent; a parent index that does not point back makes a root', (t) => {
  const spans = [span('b', 'phase', 5, 1), span('a', 'phase', 0, 5), span('late', 'app', 1, 1, 1, 1), span('broken', 'app', 2, 1, 7, 1)];
  const { rows } = accountTimeline({ total: 6, spans, droppedSpans: 0 });
  t.deepEqual(
    rows.map(({ span: { name }, depth }) => `${depth}:${name}`),
    ['0:a', '1:late', '0:broken', '0:b'],
  );
});

test('an empty timeline has nothing but its total unaccounted', (t) => {
  t.deepEqual(accountTimeline({ total: 2, spans: [], droppedSpans: 0 }), { total: 2, rows: [], unaccounted: 2 });
});
