import test from 'ava';
import { formatProfile } from '../../../../src/profiler/ui/cli/format/format-profile';
import { formatWaterfall } from '../../../../src/profiler/ui/cli/format/format-waterfall';
import { type TimelineCollectorData } from '../../../../src/profiler/collect/collectors/timeline-collector';
import { parseProfile } from '../../../../src/profiler/profile-schema';
import { sampleProfile } from '../../../helpers/sample-profile';

const timeline: TimelineCollectorData = {
  total: 10,
  droppedSpans: 0,
  spans: [
    { name: 'kernel.request', category: 'phase', start: 0, duration: 2, parent: -1, depth: 0 },
    { name: 'RouterListener', category: 'listener', start: 0.5, duration: 1, parent: 0, depth: 1 },
    { name: 'error_sub_request', category: 'phase', start: 2, duration: 8, parent: -1, depth: 0 },
    { name: 'sub-request GET /boom', category: 'sub_request', start: 2, duration: 8, parent: 2, depth: 1, token: 'abc123' },
  ],
};

test('each span is a line: indented name, start, duration and a bar of 40 columns placed on the total', (t) => {
  t.deepEqual(formatWaterfall(timeline), [
    'kernel.request                    +0.00 ms  2.00 ms  |########                                |',
    '  RouterListener                  +0.50 ms  1.00 ms  |  ####                                  |',
    'error_sub_request                 +2.00 ms  8.00 ms  |        ################################|',
    '  sub-request GET /boom → abc123  +2.00 ms  8.00 ms  |        ################################|',
    // kernel.request's own 1 ms, and the sub-request's 8 ms that none of its phases covers.
    'unaccounted: 9.00 ms (90.0 % of 10.0 ms)',
  ]);
});

test('with a terminal width the bars fill the line', (t) => {
  const lines = formatWaterfall(timeline, 100).slice(0, -1);
  t.true(lines.every((line) => line.length + 2 === 100), lines.map((line) => line.length).join(','));
  t.true(formatWaterfall(timeline, 20).every((line) => !line.includes('|') || /\|[ #]{10}\|$/.test(line)), 'never narrower than 10 columns');
});

test('an older profile without a timeline entry still reads, and says the timeline has no data', (t) => {
  const older = JSON.stringify(sampleProfile({ collectors: { events: { phases: [], listeners: [] } } }));
  const parsed = parseProfile(older);
  if (!parsed.ok) return t.fail(parsed.error);
  t.true(formatProfile(parsed.profile).includes('Timeline\n  (no data: no "timeline" collector entry)\n'));
});
