import { type ProfilerStats } from '../../profiler';
import { html, type SafeHtml } from '../../../view/html';
import { ProfilerPaths } from '../../profiler-paths';

/** The counters' names in the status JSON: all `null` from a process that stores no profiles. */
const COUNTER_NAMES = ['stored', 'dropped', 'notProfiled', 'replaced', 'queued', 'batches', 'writerState', 'lastError', 'sampleRate', 'slowMs', 'sampledOut', 'keptAsError', 'keptAsSlow'] as const;

/**
 * What the pages say in place of counters when the process serving them stores no profiles
 * (`loupe profiler:serve`): the processes that store them count, each on its own.
 */
export const READER_NOTE = 'This process only reads the profiles (loupe profiler:serve): it stores none, so it has no counters. Each server that stores profiles counts its own on its status page.';

/** The profiler's counters as plain numbers, for the status JSON; each `null` when this process stores no profiles. */
export function counterValues(stats: ProfilerStats | null): Record<(typeof COUNTER_NAMES)[number], string | number | null> {
  if (stats === null) return Object.fromEntries(COUNTER_NAMES.map((name) => [name, null])) as Record<(typeof COUNTER_NAMES)[number], null>;
  const { writer } = stats;
  return {
    stored: writer.stored,
    dropped: writer.dropped,
    notProfiled: stats.notProfiled,
    replaced: writer.replaced,
    queued: writer.queued,
    batches: writer.batches,
    writerState: writer.state,
    lastError: writer.lastError,
    sampleRate: stats.sampling.rate,
    slowMs: stats.sampling.slowMs,
    sampledOut: stats.sampling.sampledOut,
    keptAsError: stats.sampling.keptAsError,
    keptAsSlow: stats.sampling.keptAsSlow,
  };
}

/**
 * The writer's counters (this process, since it started) as a definition list: how many
 * profiles were stored, dropped or never made, so a missing profile is never a mystery.
 */
export function renderWriterCounters(stats: ProfilerStats): SafeHtml {
  const { writer } = stats;
  return html`<dl class="counters">
<dt>Stored</dt><dd data-counter="stored">${writer.stored}</dd>
<dt>Dropped</dt><dd data-counter="dropped">${writer.dropped}</dd>
<dt>Not profiled</dt><dd data-counter="not-profiled">${stats.notProfiled}</dd>
<dt>Replaced</dt><dd data-counter="replaced">${writer.replaced}</dd>
<dt>Queued</dt><dd data-counter="queued">${writer.queued}</dd>
<dt>Writer</dt><dd data-counter="writer-state">${writer.state}</dd>
${writer.lastError === null ? '' : html`<dt>Last error</dt><dd data-counter="last-error">${writer.lastError}</dd>`}
</dl>`;
}

/**
 * The sidebar of every page: only what tells a reader why a profile may be missing (stored,
 * dropped, not profiled); the writer's internals (replaced, queued, its state) are on the
 * status page, which the link opens.
 */
export function renderSidebarCounters(stats: ProfilerStats | null): SafeHtml {
  if (stats === null) {
    return html`<h2>Profiler</h2>
<p class="help" data-counter="reader">Pages served on their own: this process stores no profiles.</p>
<p class="help"><a href="${ProfilerPaths.STATUS}">Status and configuration</a></p>`;
  }
  const { writer } = stats;
  return html`<h2>Profiler</h2>
<dl class="counters">
<dt>Stored</dt><dd data-counter="stored">${writer.stored}</dd>
<dt>Dropped</dt><dd data-counter="dropped">${writer.dropped}</dd>
<dt>Not profiled</dt><dd data-counter="not-profiled">${stats.notProfiled}</dd>
</dl>
<p class="help"><a href="${ProfilerPaths.STATUS}">Status and configuration</a></p>`;
}
