import { STATUS_TEXT } from '../../../errors/status-text';
import { type LogRecord, type PhaseRecord } from '../../../kernel/trace';
import { html, type SafeHtml } from '../../../view/html';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../../collect/collectors/exception-collector';
import { LOGS_COLLECTOR, type LogsCollectorData } from '../../collect/collectors/logs-collector';
import { machineOf } from '../../collect/collectors/machine-view';
import { MEMORY_COLLECTOR, type MemoryCollectorData } from '../../collect/collectors/memory-collector';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../../collect/collectors/router-collector';
import { formatMs } from '../panel/panel-format';
import { timelineTotal } from '../panel/timeline';
import { collectorData, type Profile } from '../../profile';
import { profilePath } from '../../profiler-paths';
import { renderIoItems } from './toolbar-io-items';
import { type ToolbarItem } from './toolbar-item';
import { BRAND_ITEM } from './toolbar-snippet';

/** Log levels the toolbar counts as errors, as Symfony's logger collector (error and above). */
const ERROR_LEVELS: ReadonlySet<LogRecord['level']> = new Set(['error', 'critical']);

/** A phase's class: its name with the dots a class selector cannot hold made dashes. */
function phaseClass(name: string): string {
  return `lwdt-phase lwdt-phase-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function percent(value: number, total: number): number {
  return Math.min(100, Math.max(0, (value / total) * 100));
}

function swatch(name: string): SafeHtml {
  return html`<svg class="lwdt-swatch" viewBox="0 0 8 8" aria-hidden="true"><rect class="${phaseClass(name)}" width="8" height="8"/></svg>`;
}

function statusItem(profile: Profile): SafeHtml {
  const status = profile.statusCode;
  const tone = status >= 500 || status === 0 ? 'error' : status >= 400 ? 'warning' : status >= 300 ? 'redirect' : 'ok';
  const text = status === 0 ? 'No response: the client disconnected' : `${status} ${STATUS_TEXT[status] ?? ''}`.trim();
  return html`<a class="lwdt-item lwdt-status lwdt-status-${tone}" href="${profilePath(profile.token, 'request')}" title="${text}">${status === 0 ? '—' : status}</a>`;
}

function routeItem(profile: Profile): SafeHtml {
  const router = collectorData<RouterCollectorData>(profile, ROUTER_COLLECTOR);
  const route = router?.route ?? null;
  const title = route === null ? (router?.failure ?? 'No route matched') : `Route "${route}", controller ${router?.controller ?? 'unknown'}`;
  return html`<a class="lwdt-item lwdt-route" href="${profilePath(profile.token, 'router')}" title="${title}"><span class="lwdt-label">${profile.method}</span>\
<span class="${route === null ? 'lwdt-muted' : 'lwdt-value'}">${route ?? 'no route'}</span></a>`;
}

/** The stored states as a waterfall in a small SVG: sizes are attributes, which no Content-Security-Policy restricts. */
function timeItem(profile: Profile): SafeHtml {
  const states: readonly PhaseRecord[] = machineOf(profile)?.states ?? [];
  const total = timelineTotal(profile.duration, states);
  const bars = states.map((state) => {
    // A phase too short to see still gets a sliver, kept inside the track.
    const width = Math.max(0.8, percent(state.duration, total));
    const x = Math.min(percent(state.start, total), 100 - width);
    return html`<rect class="${phaseClass(state.name)}" x="${x.toFixed(2)}" width="${width.toFixed(2)}" height="12"><title>${state.name}: ${formatMs(state.duration)}</title></rect>`;
  });
  const rows = states.map((state) => html`<tr><th>${swatch(state.name)}${state.name}</th><td>${formatMs(state.duration)}</td></tr>`);
  return html`<div class="lwdt-item lwdt-block lwdt-time"><a href="${profilePath(profile.token, 'machine')}" title="The request's states, in order">\
<span class="lwdt-value">${formatMs(profile.duration)}</span>\
<svg class="lwdt-timeline" viewBox="0 0 100 12" preserveAspectRatio="none" role="img" aria-label="The request's states as a timeline">${bars}</svg></a>\
<div class="lwdt-info"><table><tr><th>Total</th><td>${formatMs(profile.duration)}</td></tr>${rows}</table></div></div>`;
}

function memoryItem(profile: Profile): SafeHtml | null {
  const memory = collectorData<MemoryCollectorData>(profile, MEMORY_COLLECTOR);
  if (memory === undefined) return null;
  const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
  return html`<span class="lwdt-item lwdt-memory" title="V8 heap in use when the request ended (the whole process's), of ${mib(memory.heapTotal)} MiB reserved">\
<span class="lwdt-value">${mib(memory.heapUsed)}</span><span class="lwdt-unit">MiB</span></span>`;
}

/** Whether `record` is the line the kernel logged for one of `errors` ("Uncaught Exception …"): that error is counted once, as its exception. */
function logsAnError(record: LogRecord, errors: ExceptionCollectorData['errors']): boolean {
  const logged = record.context['exception'];
  if (typeof logged !== 'object' || logged === null) return false;
  const { class: name, message } = logged as { class?: unknown; message?: unknown };
  return errors.some((error) => error.class === name && error.message === message);
}

function errorsItem(profile: Profile): SafeHtml {
  const errors = collectorData<ExceptionCollectorData>(profile, EXCEPTION_COLLECTOR)?.errors ?? [];
  const exceptions = errors.length;
  const records = collectorData<LogsCollectorData>(profile, LOGS_COLLECTOR)?.records ?? [];
  const logs = records.filter((record) => ERROR_LEVELS.has(record.level) && !logsAnError(record, errors)).length;
  const count = exceptions + logs;
  const panel = exceptions > 0 ? 'exception' : 'logs';
  return html`<div class="lwdt-item lwdt-block lwdt-errors ${count > 0 ? 'lwdt-errors-some' : 'lwdt-errors-none'}">\
<a href="${profilePath(profile.token, panel)}" title="${count === 1 ? '1 error' : `${count} errors`}"><span class="lwdt-value">${count}</span><span class="lwdt-label">${count === 1 ? 'error' : 'errors'}</span></a>\
<div class="lwdt-info"><table><tr><th>Exceptions</th><td>${exceptions}</td></tr><tr><th>Other logs at error level or above</th><td>${logs}</td></tr></table></div></div>`;
}

/** An application's or a plugin's item; one that fails shows nothing rather than no toolbar. */
function renderOwnItem(item: ToolbarItem, profile: Profile): SafeHtml | null {
  try {
    return item.render(profile);
  } catch {
    return null;
  }
}

/**
 * The toolbar's content for one profile (what `/_wdt/{token}` answers, as WebProfilerBundle's
 * toolbar.html.twig): status, method and route, duration with the request's states as a small
 * timeline, memory, the application's queries, calls and commands, the items of plugins and of
 * the application (`items`), the error count (exceptions, and error logs other than theirs), and the link to the profile.
 * A fragment: the injected script puts it into the page's placeholder.
 */
export function renderToolbarContent(profile: Profile, items: readonly ToolbarItem[] = []): SafeHtml {
  return html`${BRAND_ITEM}${statusItem(profile)}${routeItem(profile)}${timeItem(profile)}${memoryItem(profile)}${renderIoItems(profile)}${items.map((item) => renderOwnItem(item, profile))}${errorsItem(profile)}\
<a class="lwdt-item lwdt-profile" href="${profilePath(profile.token)}" title="Open the profile of this request">Profile <b>${profile.token}</b></a>`;
}

/** The toolbar's content when there is no profile to show: why, and the link to the profile page, which says more. */
export function renderToolbarMessage(token: string, message: string): SafeHtml {
  return html`${BRAND_ITEM}<span class="lwdt-item lwdt-loading lwdt-failed">${message}</span>\
<a class="lwdt-item lwdt-profile" href="${profilePath(token)}" title="Open the profile of this request">Profile <b>${token}</b></a>`;
}
