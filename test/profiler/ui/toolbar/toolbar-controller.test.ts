import test from 'ava';
import { type LoupeResponse } from '../../../../src/http/response';
import { type ProfileSource } from '../../../../src/profiler/ui/panel/load-profile';
import { type ProfileStorage, type ReadResult } from '../../../../src/profiler/storage/profile-storage';
import { createToolbarController } from '../../../../src/profiler/ui/toolbar/toolbar-controller';
import { exchangeFor } from '../../../helpers/request-data';
import { sampleProfile } from '../../../helpers/sample-profile';

// The controller over an in-memory storage: the cases a live server cannot be made to show on
// demand (a profile stored while the toolbar waits, a dropped or unreadable one).

/** A storage whose `read` answers the results of `reads` in turn, the last one from then on; counts the reads. */
function source(reads: readonly ReadResult[], droppedByWriter: Record<string, string> = {}): ProfileSource & { readonly calls: () => number } {
  let calls = 0;
  const storage: ProfileStorage = {
    write: () => Promise.resolve({ stored: 0, replaced: 0 }),
    markDropped: () => Promise.resolve(),
    batchOutcome: (_batch, tokens) => Promise.resolve({ stored: 0, replaced: 0, notStored: tokens }),
    read: () => Promise.resolve(reads[Math.min(calls++, reads.length - 1)] ?? { kind: 'missing' }),
    find: () => Promise.resolve([]),
    findRows: () => Promise.resolve([]),
    search: () => Promise.resolve({ rows: [], total: 0, scanned: 0, complete: true }),
    latest: () => Promise.resolve(null),
    purge: () => Promise.resolve(0),
    count: () => Promise.resolve(0),
  };
  return { storage, droppedReason: (token) => droppedByWriter[token], calls: () => calls };
}

async function call(from: ProfileSource, timeoutMs = 2_000): Promise<LoupeResponse> {
  const exchange = exchangeFor({ path: '/_wdt/abc123' });
  return (await createToolbarController(from, [], timeoutMs).handle({ ...exchange.resolveArguments(), params: { token: 'abc123' } })) as LoupeResponse;
}

const FOUND: ReadResult = { kind: 'found', json: JSON.stringify(sampleProfile()) };

test('a profile stored while the toolbar waits is shown as soon as it is there', async (t) => {
  const from = source([{ kind: 'missing' }, { kind: 'missing' }, { kind: 'missing' }, FOUND]);
  const res = await call(from);
  t.is(res.status, 200);
  t.is(from.calls(), 4);
  t.true(String(res.body).includes('title="200 OK">200</a>'));
});

test('a profile that never comes: a 404 once the wait is over, having asked more than once', async (t) => {
  const from = source([{ kind: 'missing' }]);
  const res = await call(from, 60);
  t.is(res.status, 404);
  t.true(from.calls() > 1, `${from.calls()} reads`);
  t.true(String(res.body).includes('The profile is not stored yet.'));
});

test('a dropped profile is a 410 with the reason at once; an unreadable one a 500', async (t) => {
  const tombstone = source([{ kind: 'dropped', reason: 'Redis was unavailable.' }]);
  const dropped = await call(tombstone);
  t.is(dropped.status, 410);
  t.is(tombstone.calls(), 1, 'no waiting for a profile that will never be stored');
  t.true(String(dropped.body).includes('The profile was dropped: Redis was unavailable.'));
  const byWriter = await call(source([{ kind: 'missing' }], { abc123: 'The profile queue was full.' }));
  t.is(byWriter.status, 410);
  t.true(String(byWriter.body).includes('The profile queue was full.'));
  const unreadable = await call(source([{ kind: 'found', json: '{"version":1}' }]));
  t.is(unreadable.status, 500);
  t.true(String(unreadable.body).includes('The profile is unreadable.'));
  t.true(String(unreadable.body).startsWith('<span class="lwdt-item lwdt-brand"'), 'a fragment the page\'s script shows');
});
