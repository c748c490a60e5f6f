import { type ProfilerStats } from '../profiler';
import { html } from '../../view/html';
import { renderPanelLayout } from './panel-layout';
import { renderWriterCounters } from './writer-counters';

/**
 * The profiler's status: this process's writer counters since it started, and how many
 * profiles the shared storage indexes (every process writing to this Redis).
 */
export function renderStatusPage(stats: ProfilerStats, indexed: number): string {
  return renderPanelLayout({
    content: html`<h2>Profiler status</h2>
<p>Counters of this server process since it started. A profile is <em>dropped</em> when it could not be stored
(Redis unavailable, queue full); a request is <em>not profiled</em> when no token could be handed out for it.</p>
${renderWriterCounters(stats)}
<p>Profiles indexed in storage (all processes): <strong data-counter="indexed">${indexed}</strong></p>`,
  });
}
