import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROFILER_LISTENER_NAMES } from '../../../src/profiler/ui/profiler-listener-names';

const PROFILER = path.resolve(__dirname, '..', '..', '..', 'src', 'profiler');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

test('the listeners the Performance panel folds as the profiler\'s own are exactly those src/profiler defines', (t) => {
  const defined = new Set(sources(PROFILER).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/defineListener\('([^']+)'/g)].map(([, name = '']) => name)));
  t.deepEqual([...defined].sort(), [...PROFILER_LISTENER_NAMES].sort());
});
