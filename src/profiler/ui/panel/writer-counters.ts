import { type ProfilerStats } from '../../profiler';
import { html, type SafeHtml } from '../../../view/html';
import { ProfilerPaths } from '../../profiler-paths';

/** The profiler's counters as plain numbers, for the status JSON. */
export function counterValues(stats: ProfilerStats): Record<string, string | number | null> {
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
export function renderSidebarCounters(stats: ProfilerStats): SafeHtml {
  const { writer } = stats;
  return html`<h2>Profiler</h2>
<dl class="counters">
<dt>Stored</dt><dd data-counter="stored">${writer.stored}</dd>
<dt>Dropped</dt><dd data-counter="dropped">${writer.dropped}</dd>
<dt>Not profiled</dt><dd data-counter="not-profiled">${stats.notProfiled}</dd>
</dl>
<p class="help"><a href="${ProfilerPaths.STATUS}">Status and configuration</a></p>`;
}
