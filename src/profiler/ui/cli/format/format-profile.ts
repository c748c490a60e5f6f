import { type PanelDefinition } from '../../panel/panel-definition';
import { STATUS_TEXT } from '../../../../errors/status-text';
import { type ListenerRecord, type LogRecord } from '../../../../kernel/trace';
import { DATABASE_COLLECTOR, HTTP_CLIENT_COLLECTOR, REDIS_COLLECTOR, type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../../../collect/collectors/app-io-collectors';
import { EVENTS_COLLECTOR, eventsOf, type EventsView } from '../../../collect/collectors/events-view';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../../../collect/collectors/exception-collector';
import { LOGS_COLLECTOR, type LogsCollectorData } from '../../../collect/collectors/logs-collector';
import { MACHINE_COLLECTOR } from '../../../collect/collectors/machine-view';
import { MEMORY_COLLECTOR, type MemoryCollectorData } from '../../../collect/collectors/memory-collector';
import { REQUEST_COLLECTOR, type RequestCollectorData } from '../../../collect/collectors/request-collector';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../../../collect/collectors/router-collector';
import { TIMELINE_COLLECTOR, type TimelineCollectorData } from '../../../collect/collectors/timeline-collector';
import { collectorData, type Profile } from '../../../profile';
import { escapeControl } from '../../../../log/escape-control';
import { databaseLines, httpClientLines, redisLines } from './format-app-io';
import { formatDuration } from '../../../../cli/format/format-duration';
import { formatErrors } from './format-errors';
import { formatRouteMatching } from './format-route-matching';
import { formatTimeline } from './format-timeline';
import { requestPhases } from '../../request-phases';
import { formatWaterfall } from './format-waterfall';

type HeaderValues = Readonly<Record<string, string | readonly string[]>>;

/** The collectors this view has sections for (events and machine: the entries of profiles stored before the timeline held them); the machine's states are in the phases already, memory in the summary. */
const SHOWN: ReadonlySet<string> = new Set([
  EVENTS_COLLECTOR,
  EXCEPTION_COLLECTOR,
  LOGS_COLLECTOR,
  REQUEST_COLLECTOR,
  ROUTER_COLLECTOR,
  MACHINE_COLLECTOR,
  TIMELINE_COLLECTOR,
  MEMORY_COLLECTOR,
  DATABASE_COLLECTOR,
  HTTP_CLIENT_COLLECTOR,
  REDIS_COLLECTOR,
]);

/**
 * A titled block of lines. Every line is escaped here, whatever section it comes from: a stored
 * value (a URL, a header, a message) can neither drive the terminal nor start a line of its own.
 */
function section(title: string, lines: readonly string[]): string {
  return [title, ...(lines.length === 0 ? ['(none)'] : lines).map((line) => (line === '' ? '' : `  ${escapeControl(line)}`))].join('\n');
}

/** The lines `format` makes of the phases and listeners (read from the timeline), or `(no data)` when the profile has none. */
function fromEvents(profile: Profile, format: (events: EventsView) => string[]): string[] {
  const events = eventsOf(profile);
  return events === undefined ? [`(no data: no "${TIMELINE_COLLECTOR}" collector entry)`] : format(events);
}

/** The lines `format` makes of the entry of collector `name`, or `(no data)` when the profile has none. */
function fromCollector<TData extends object>(profile: Profile, name: string, format: (data: TData) => string[]): string[] {
  const data = collectorData<TData>(profile, name);
  return data === undefined ? [`(no data: no "${name}" collector entry)`] : format(data);
}

function fields(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
}

function headerValue(headers: HeaderValues, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : headers[key];
  return typeof value === 'string' ? value : value?.join(', ');
}

function statusText(profile: Profile): string {
  if (profile.statusCode === 0) return profile.aborted ? '0 (aborted: the client went away before the response)' : '0 (no response)';
  const text = STATUS_TEXT[profile.statusCode];
  return text === undefined ? String(profile.statusCode) : `${profile.statusCode} ${text}`;
}

function summary(profile: Profile): string[] {
  const response = collectorData<RequestCollectorData>(profile, REQUEST_COLLECTOR)?.response;
  const link = response === undefined ? undefined : headerValue(response.headers, 'X-Debug-Token-Link');
  const memory = collectorData<MemoryCollectorData>(profile, MEMORY_COLLECTOR);
  return fields([
    ['Method', profile.method],
    ['URL', profile.url],
    ['Status', statusText(profile)],
    ['Time', new Date(profile.time).toISOString()],
    ['Duration', formatDuration(profile.duration)],
    ...(memory === undefined ? [] : [['Memory', `${(memory.heapUsed / 1024 / 1024).toFixed(1)} MiB of V8 heap in use (the process's)`] as const]),
    ['IP', profile.ip],
    ['Parent', profile.parent ?? '-'],
    ['Children', profile.children.length === 0 ? '-' : profile.children.join(', ')],
    ...(link === undefined ? [] : [['Panel', link] as const]),
  ]);
}

function listenerLines(listeners: readonly ListenerRecord[]): string[] {
  const byPhase = new Map<string, ListenerRecord[]>();
  for (const listener of listeners) byPhase.set(listener.phase, [...(byPhase.get(listener.phase) ?? []), listener]);
  const priorityWidth = Math.max(0, ...listeners.map((listener) => String(listener.priority).length));
  const nameWidth = Math.max(0, ...listeners.map((listener) => listener.name.length));
  const lines: string[] = [];
  for (const [phase, records] of byPhase) {
    lines.push(phase);
    for (const record of records) {
      lines.push(`  ${String(record.priority).padStart(priorityWidth)}  ${record.name.padEnd(nameWidth)}  ${formatDuration(record.duration)}`);
    }
  }
  return lines;
}

function contextValue(value: unknown): string {
  // A flattened error in a log context is long; its class says enough next to the Errors section.
  if (typeof value === 'object' && value !== null && typeof (value as { class?: unknown }).class === 'string') {
    return `<${String((value as { class: string }).class)}>`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

function logLines(logs: readonly LogRecord[]): string[] {
  const levelWidth = Math.max(0, ...logs.map((log) => log.level.length));
  return logs.map((log) => {
    const context = Object.entries(log.context).map(([key, value]) => `${key}=${contextValue(value)}`);
    const tail = context.length === 0 ? '' : `  ${context.join(' ')}`;
    return `+${formatDuration(log.at)}  ${log.level.toUpperCase().padEnd(levelWidth)}  ${log.message}${tail}`;
  });
}

function headerLines(headers: HeaderValues): string[] {
  return Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [value] : value).map((item) => `${name}: ${item}`));
}

function requestLines(request: RequestCollectorData): string[] {
  const rows: [string, string][] = [['Locale', request.locale]];
  if (request.user !== null) rows.push(['User', `${request.user.identifier} (${request.user.roles.join(', ')}; via ${request.user.via})`]);
  if (Object.keys(request.query).length > 0) rows.push(['Query', JSON.stringify(request.query)]);
  if (Object.keys(request.cookies).length > 0) rows.push(['Cookies', JSON.stringify(request.cookies)]);
  if (request.body !== null && request.body !== undefined) rows.push(['Body', contextValue(request.body)]);
  if (request.session !== null) rows.push(['Session', contextValue(request.session)]);
  return fields(rows);
}

function routingLines(routing: RouterCollectorData): string[] {
  const params = Object.entries(routing.params).map(([name, value]) => `${name}=${value}`);
  return fields([
    ['Route', routing.route ?? '-'],
    ['Controller', routing.controller ?? '-'],
    ['Params', params.length === 0 ? '-' : params.join(', ')],
    ...(routing.failure === null ? [] : [['Failure', routing.failure] as const]),
  ]).concat(routing.matching === undefined || routing.matching === null ? [] : formatRouteMatching(routing.matching));
}

/** A panel's own text for a terminal; one that fails says so rather than losing the profile. */
function panelText(panel: PanelDefinition, data: object, profile: Profile): string[] {
  try {
    return [...(panel.text?.(data, profile) ?? [])];
  } catch (error) {
    return [`(the ${panel.name} panel could not write its text: ${error instanceof Error ? error.message : String(error)})`];
  }
}

/** The sections of `profiler:show` every profile has, by the name the MCP server's `panel` takes. */
export const PROFILE_SECTIONS = ['summary', 'phases', 'timeline', 'listeners', 'routing', 'errors', 'logs', 'database', 'http', 'redis', 'request', 'request-headers', 'response-headers'] as const;

/** One titled block of `profiler:show`: Loupe's own (PROFILE_SECTIONS), an application panel's (its name), or `others`. */
export interface ProfileSection {
  readonly name: string;
  /** The block, its title on the first line. */
  readonly text: string;
}

/**
 * The sections of a stored profile for a terminal: summary, phases on a timeline, every span as a
 * waterfall (bars fitted to `columns`, the terminal's width, when given), listeners per phase,
 * routing, errors with their chain and first frames, logs, the application's SQL queries (N+1
 * shapes first), HTTP calls and Redis commands, then the request and the headers both ways.
 * Each section reads one collector's entry and says so when the profile has none; entries of
 * other collectors are shown by their panel's `text` when one of `panels` has it, else only named.
 */
export function profileSections(profile: Profile, columns?: number, panels: readonly PanelDefinition[] = []): ProfileSection[] {
  const unshown = Object.keys(profile.collectors).filter((name) => !SHOWN.has(name));
  // An application's collector whose panel writes text has a section of its own.
  const described = unshown.flatMap((name) => {
    const panel = panels.find((candidate) => candidate.collector === name && candidate.text !== undefined);
    return panel === undefined ? [] : [{ name, panel }];
  });
  const others = unshown.filter((name) => !described.some((entry) => entry.name === name));
  const sections: Record<(typeof PROFILE_SECTIONS)[number], string> = {
    summary: section('Summary', summary(profile)),
    phases: section('Phases', fromEvents(profile, () => formatTimeline(requestPhases(profile) ?? [], profile.duration))),
    timeline: section('Timeline', fromCollector<TimelineCollectorData>(profile, TIMELINE_COLLECTOR, (timeline) => formatWaterfall(timeline, columns))),
    listeners: section('Listeners', fromEvents(profile, (events) => listenerLines(events.listeners))),
    routing: section('Routing', fromCollector(profile, ROUTER_COLLECTOR, routingLines)),
    errors: section('Errors', fromCollector<ExceptionCollectorData>(profile, EXCEPTION_COLLECTOR, (exception) => formatErrors(exception.errors))),
    logs: section('Logs', fromCollector<LogsCollectorData>(profile, LOGS_COLLECTOR, (logs) => logLines(logs.records))),
    database: section('Database', fromCollector<DatabaseCollectorData>(profile, DATABASE_COLLECTOR, databaseLines)),
    http: section('HTTP calls', fromCollector<HttpClientCollectorData>(profile, HTTP_CLIENT_COLLECTOR, httpClientLines)),
    redis: section('Redis', fromCollector<RedisCollectorData>(profile, REDIS_COLLECTOR, redisLines)),
    request: section('Request', fromCollector(profile, REQUEST_COLLECTOR, requestLines)),
    'request-headers': section('Request headers', fromCollector<RequestCollectorData>(profile, REQUEST_COLLECTOR, (request) => headerLines(request.headers))),
    'response-headers': section('Response headers', fromCollector<RequestCollectorData>(profile, REQUEST_COLLECTOR, (request) => headerLines(request.response.headers))),
  };
  return [
    ...PROFILE_SECTIONS.map((name) => ({ name, text: sections[name] })),
    ...described.map(({ name, panel }) => ({ name: panel.name, text: section(panel.label, fromCollector(profile, name, (data) => panelText(panel, data, profile))) })),
    ...(others.length === 0 ? [] : [{ name: 'others', text: section('Other collectors (--json shows them)', others) }]),
  ];
}

/** The heading line of `profiler:show`: the token, and whether it is a main request or a sub-request. */
export function profileHeading(profile: Profile): string {
  return `Profile ${escapeControl(profile.token)} (${profile.type === 'sub' ? 'sub-request' : 'main request'})`;
}

/** A stored profile for a terminal: its heading, then every section of profileSections. */
export function formatProfile(profile: Profile, columns?: number, panels: readonly PanelDefinition[] = []): string {
  return `${[profileHeading(profile), ...profileSections(profile, columns, panels).map((entry) => entry.text)].join('\n\n')}\n`;
}
