import test, { type ExecutionContext } from 'ava';
import { LoupeError } from '../../src/errors/loupe-error';
import { checkProfilerParts } from '../../src/profiler/check-profiler-parts';
import { type ProfileCollector } from '../../src/profiler/collector';
import { defaultCollectors } from '../../src/profiler/collect/collectors/default-collectors';
import { type PanelDefinition } from '../../src/profiler/ui/panel/panel-definition';
import { DEFAULT_PANELS } from '../../src/profiler/ui/panel/panel-registry';
import { html } from '../../src/view/html';

const collectors = defaultCollectors({ secretCookies: new Set() });
const collector = (name: string): ProfileCollector => ({ name, collect: () => ({}) });
const panel = (name: string, reads: string): PanelDefinition => ({ name, label: name, collector: reads, render: () => html`` });

/** What checking the parts throws: `code: message`. */
function problem(t: ExecutionContext, collectorList: readonly ProfileCollector[], panels: readonly PanelDefinition[]): string {
  const error = t.throws(() => checkProfilerParts({ collectors: collectorList, panels }), { instanceOf: LoupeError });
  return `${error?.code ?? ''}: ${error?.message ?? ''}`;
}

test('Loupe\'s collectors and panels go together, and come back frozen', (t) => {
  const parts = checkProfilerParts({ collectors, panels: DEFAULT_PANELS });
  t.deepEqual(parts.collectors.map((item) => item.name), ['request', 'exception', 'logs', 'router', 'timeline', 'memory', 'db', 'http_client', 'redis']);
  t.deepEqual(parts.panels, DEFAULT_PANELS);
  t.true(Object.isFrozen(parts) && Object.isFrozen(parts.collectors) && Object.isFrozen(parts.panels));
  for (const item of DEFAULT_PANELS) t.true(parts.collectors.some((candidate) => candidate.name === item.collector), item.name);
});

test('an application\'s collector and panel are accepted after Loupe\'s', (t) => {
  t.notThrows(() => checkProfilerParts({ collectors: [...collectors, collector('cart')], panels: [...DEFAULT_PANELS, panel('cart', 'cart')] }));
});

test('two collectors or two panels of one name, a name that is not plain, or a panel without its collector fail the start', (t) => {
  t.is(problem(t, [...collectors, collector('request')], DEFAULT_PANELS), 'LOUPE_ERR_CONFIG_INVALID: Invalid profiler extension: two collectors are named "request".');
  t.is(problem(t, collectors, [...DEFAULT_PANELS, panel('logs', 'logs')]), 'LOUPE_ERR_CONFIG_INVALID: Invalid profiler extension: two panels are named "logs".');
  t.is(
    problem(t, collectors, [panel('my cart', 'request')]),
    'LOUPE_ERR_CONFIG_INVALID: Invalid profiler extension: the panel name "my cart" may hold only letters, digits, "_", "." and "-".',
  );
  t.is(
    problem(t, collectors, [...DEFAULT_PANELS, panel('cart', 'cart')]),
    'LOUPE_ERR_CONFIG_INVALID: Invalid profiler extension: the panel "cart" reads the collector "cart", which is not registered.',
  );
});
