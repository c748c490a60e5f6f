import { type ProfilerStats } from '../profiler';
import { html, type SafeHtml } from '../../view/html';
import { renderPanelLayout } from './panel-layout';
import { renderWriterCounters } from './writer-counters';

/** What the storage said when asked how many profiles it indexes. */
export type StorageState =
  | { readonly reachable: true; readonly indexed: number; readonly error: null }
  | { readonly reachable: false; readonly indexed: null; readonly error: string };

/** What sampling (PROFILER_SAMPLE) did: requests left out, and those kept although not drawn. */
function renderSampling(stats: ProfilerStats): SafeHtml {
  const { sampling } = stats;
  return html`<h3>Sampling</h3>
<p>PROFILER_SAMPLE <strong data-counter="sample-rate">${sampling.rate}</strong>: a request not drawn gets no token and no profile,
unless it failed (5xx, a server error) or took at least PROFILER_SLOW_MS <strong data-counter="slow-ms">${sampling.slowMs}</strong> ms.</p>
<dl class="counters">
<dt>Sampled out</dt><dd data-counter="sampled-out">${sampling.sampledOut}</dd>
<dt>Kept as error</dt><dd data-counter="kept-as-error">${sampling.keptAsError}</dd>
<dt>Kept as slow</dt><dd data-counter="kept-as-slow">${sampling.keptAsSlow}</dd>
</dl>`;
}

/**
 * The profiler's status: this process's writer counters since it started (kept in memory, so
 * shown whether Redis answers or not), and how many profiles the shared storage indexes (every
 * process writing to this Redis), or why it cannot be asked.
 */
export function renderStatusPage(stats: ProfilerStats, storage: StorageState): string {
  return renderPanelLayout({
    content: html`<h2>Profiler status</h2>
<p>Counters of this server process since it started. A profile is <em>dropped</em> when it could not be stored
(Redis unavailable, queue full); a request is <em>not profiled</em> when no token could be handed out for it.</p>
${renderWriterCounters(stats)}
${renderSampling(stats)}
${
  storage.reachable
    ? html`<p>Profile storage (Redis): <strong data-counter="storage">reachable</strong></p>
<p>Profiles indexed in storage (all processes): <strong data-counter="indexed">${storage.indexed}</strong></p>`
    : html`<p class="level-error">Profile storage (Redis): <strong data-counter="storage">unreachable</strong> — <span data-counter="storage-error">${storage.error}</span></p>
<p>The counters above are this process's own; profiles cannot be read until Redis answers again.</p>`
}`,
  });
}
