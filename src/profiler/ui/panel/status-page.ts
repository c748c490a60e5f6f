import { type ProfilerStats } from '../../profiler';
import { type WorkerStatus } from '../../../server/workers/worker-protocol';
import { html, type SafeHtml } from '../../../view/html';
import { renderPanelLayout } from './panel-layout';
import { READER_NOTE, renderWriterCounters } from './writer-counters';
import { renderProfilerSettings, type ProfilerSettings } from './profiler-settings';

/** What the storage said when asked how many profiles it indexes. */
export type StorageState =
  | { readonly reachable: true; readonly indexed: number; readonly error: null }
  | { readonly reachable: false; readonly indexed: null; readonly error: string };

/** This process's worker slot and every worker's latest status (WORKERS > 1). */
export interface WorkersView {
  readonly id: number;
  readonly workers: readonly WorkerStatus[];
}

function counter(value: number | string | null | undefined): string {
  return value === null || value === undefined ? '–' : String(value);
}

/** One row per worker: its process, restarts and counters as it last reported them (every second). */
function renderWorkers(view: WorkersView): SafeHtml {
  const rows = view.workers.map((worker) => {
    const c = worker.counters;
    const self = worker.id === view.id;
    return html`<tr data-worker="${worker.id}"${self ? html` class="current"` : ''}><td>${worker.id}${self ? ' (this page)' : ''}</td><td>${worker.pid}</td><td data-counter="restarts">${worker.restarts}</td><td>${new Date(worker.startedAt).toISOString()}</td><td data-counter="requests">${counter(c?.requests)}</td><td data-counter="active">${counter(c?.active)}</td><td data-counter="stored">${counter(c?.stored)}</td><td data-counter="dropped">${counter(c?.dropped)}</td><td data-counter="not-profiled">${counter(c?.notProfiled)}</td><td data-counter="queued">${counter(c?.queued)}</td><td>${counter(c?.writerState)}</td></tr>`;
  });
  return html`<h3>Workers</h3>
<p>WORKERS=${view.workers.length}: each worker is a process with its own kernel and profile writer, all on one port.
Their counters as each last reported them (every second); this page was served by worker ${view.id}.</p>
<table class="workers"><thead><tr><th>Worker</th><th>PID</th><th>Restarts</th><th>Started</th><th>Requests</th><th>Active</th><th>Stored</th><th>Dropped</th><th>Not profiled</th><th>Queued</th><th>Writer</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

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

/** This process's counters, or why it has none. */
function renderCounters(stats: ProfilerStats | null): SafeHtml {
  if (stats === null) return html`<p data-counter="reader">${READER_NOTE}</p>`;
  return html`<p>Counters of this server process since it started: <em>stored</em> is how many profiles it wrote. A profile is <em>dropped</em> when it could not be stored
(Redis unavailable, queue full); a request is <em>not profiled</em> when no token could be handed out for it.</p>
${renderWriterCounters(stats)}
${renderSampling(stats)}`;
}

/** Where profiles are, when Redis keeps them: whether it answers, and how many it holds of every process. */
function renderRedisStorage(storage: StorageState, hasCounters: boolean): SafeHtml {
  return storage.reachable
    ? html`<p>Profile storage (Redis): <strong data-counter="storage">reachable</strong></p>
<p>Profiles in storage now: <strong data-counter="indexed">${storage.indexed}</strong> — those of every process writing to this Redis that have not expired
(PROFILER_LIFETIME) or been pruned (PROFILER_MAX_PROFILES, PROFILER_MAX_BYTES), whenever they were stored.${hasCounters ? html` <em>Stored</em> above counts only
this process's writes since it started, so the two differ when another process or an earlier run stored profiles, or some have gone.` : ''}</p>`
    : html`<p class="level-error">Profile storage (Redis): <strong data-counter="storage">unreachable</strong> — <span data-counter="storage-error">${storage.error}</span></p>
<p>${hasCounters ? "The counters above are this process's own; profiles" : 'Profiles'} cannot be read until Redis answers again.</p>`;
}

/** Where profiles are, when this process keeps them: in its memory, gone when it ends. */
function renderMemoryStorage(storage: StorageState): SafeHtml {
  return html`<p>Profile storage: <strong data-counter="storage">in memory, this process only</strong> (no REDIS_URL)</p>
<p>Profiles in storage now: <strong data-counter="indexed">${storage.indexed}</strong> — those this process stored that have not expired
(PROFILER_LIFETIME) or been pruned (PROFILER_MAX_PROFILES, PROFILER_MAX_BYTES). They are gone when the process ends, and neither another
process nor the <code>loupe profiler:*</code> commands can read them: set REDIS_URL to share them.</p>`;
}

/**
 * The profiler's status: this process's writer counters since it started (kept in memory, so
 * shown whether Redis answers or not; none in a process that only reads, `stats` null), how many
 * profiles the shared storage indexes (every process writing to this Redis), or why it cannot be
 * asked, and the configuration in effect.
 */
export function renderStatusPage(stats: ProfilerStats | null, storage: StorageState, workers: WorkersView | null = null, settings?: ProfilerSettings): string {
  return renderPanelLayout({
    content: html`<h2>Profiler status</h2>
${renderCounters(stats)}
${workers === null ? '' : renderWorkers(workers)}
${settings?.storage === 'memory' ? renderMemoryStorage(storage) : renderRedisStorage(storage, stats !== null)}
${settings === undefined ? '' : renderProfilerSettings(settings)}`,
  });
}
