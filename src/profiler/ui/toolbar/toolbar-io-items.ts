import { html, type SafeHtml } from '../../../view/html';
import {
  DATABASE_COLLECTOR,
  HTTP_CLIENT_COLLECTOR,
  REDIS_COLLECTOR,
  type CallTotals,
  type DatabaseCollectorData,
  type HttpClientCollectorData,
  type RedisCollectorData,
} from '../../collect/collectors/app-io-collectors';
import { formatMs } from '../panel/panel-format';
import { collectorData, type Profile } from '../../profile';
import { profilePath } from '../../profiler-paths';

/** What one I/O item shows: its panel, its unit, and the problems that make it a warning. */
interface IoItem {
  readonly panel: string;
  /** Plural (`queries` is made `query` for one). */
  readonly unit: string;
  readonly title: string;
  readonly totals: CallTotals;
  /** N+1 query shapes, for the database only. */
  readonly nPlusOne: number;
  /** Calls that did not fail but warn: the HTTP calls answered 4xx. */
  readonly warnings: number;
  /** Whether the item shows its time next to the count (the database's, as Symfony's Doctrine item). */
  readonly showTime: boolean;
}

function renderItem(profile: Profile, item: IoItem): SafeHtml | null {
  const { totals } = item;
  if (totals.count === 0) return null;
  const problems = [
    item.nPlusOne > 0 ? `${item.nPlusOne} N+1` : '',
    totals.slow > 0 ? `${totals.slow} slow` : '',
    totals.errors > 0 ? `${totals.errors} failed` : '',
    item.warnings > 0 ? `${item.warnings} 4xx` : '',
  ].filter((text) => text !== '');
  const warn = problems.length > 0;
  // Red for a call that failed, amber for what only warns, as the status item's colours.
  const level = totals.errors > 0 ? ' lwdt-io-error' : warn ? ' lwdt-io-warn' : '';
  return html`<div class="lwdt-item lwdt-block lwdt-io lwdt-io-${item.panel}${level}">\
<a href="${profilePath(profile.token, item.panel)}" title="${item.title}"><span class="lwdt-value">${totals.count}</span><span class="lwdt-label">${totals.count === 1 ? item.unit.replace(/ies$/, 'y').replace(/s$/, '') : item.unit}</span>${
    item.showTime ? html`<span class="lwdt-unit">in ${formatMs(totals.time)}</span>` : ''
  }${warn ? html`<span class="lwdt-io-badge">${problems.join(', ')}</span>` : ''}</a>\
<div class="lwdt-info"><table><tr><th>${item.title}</th><td>${totals.count}</td></tr><tr><th>Time</th><td>${formatMs(totals.time)}</td></tr>\
${item.panel === 'db' ? html`<tr><th>N+1 shapes</th><td>${item.nPlusOne}</td></tr>` : ''}<tr><th>Slow (${totals.slowMs} ms or more)</th><td>${totals.slow}</td></tr><tr><th>Errors</th><td>${totals.errors}</td></tr></table></div></div>`;
}

/**
 * The toolbar's items for what the application did (as Symfony's Doctrine, HttpClient and
 * Cache items): SQL queries and their time, outgoing calls, Redis commands, each linked to its
 * panel; red with a badge when a call failed (an SQL error, an HTTP 5xx or no answer, a Redis
 * error reply), amber when a query runs in a loop (N+1), a call was slow or answered 4xx.
 * Items with nothing to count are left out, to keep the bar short.
 */
export function renderIoItems(profile: Profile): SafeHtml {
  const db = collectorData<DatabaseCollectorData>(profile, DATABASE_COLLECTOR);
  const http = collectorData<HttpClientCollectorData>(profile, HTTP_CLIENT_COLLECTOR);
  const redis = collectorData<RedisCollectorData>(profile, REDIS_COLLECTOR);
  const items: (IoItem | null)[] = [
    db === undefined ? null : { panel: 'db', unit: 'queries', title: 'SQL queries', totals: db, nPlusOne: db.nPlusOne, warnings: 0, showTime: true },
    http === undefined ? null : { panel: 'http_client', unit: 'calls', title: 'Outgoing HTTP calls', totals: http, nPlusOne: 0, warnings: http.warnings ?? 0, showTime: false },
    redis === undefined ? null : { panel: 'redis', unit: 'commands', title: 'Redis commands', totals: redis, nPlusOne: 0, warnings: 0, showTime: false },
  ];
  return html`${items.map((item) => (item === null ? null : renderItem(profile, item)))}`;
}
