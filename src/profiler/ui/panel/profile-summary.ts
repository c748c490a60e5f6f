import { STATUS_TEXT } from '../../../errors/status-text';
import { collectorData, type Profile, type ProfileCut } from '../../profile';
import { REQUEST_COLLECTOR, type RequestCollectorData } from '../../collect/collectors/request-collector';
import { html, type SafeHtml } from '../../../view/html';
import { type ChildProfile } from './load-profile';
import { formatMs, formatTime, statusLevel } from './panel-format';
import { profilePath, searchPath } from '../../profiler-paths';

/** Only web URLs become links: a Referer such as `javascript:…` stays text. */
const WEB_URL = /^https?:\/\//i;

function profileLink(token: string): SafeHtml {
  return html`<a class="mono" href="${profilePath(token)}">${token}</a>`;
}

function statusHeading(profile: Profile): SafeHtml {
  const status = profile.statusCode;
  if (status === 0) return html`<h2><span class="status-error-text">No response</span> — the client disconnected</h2>`;
  const text = STATUS_TEXT[status] ?? '';
  if (status >= 400) return html`<h2><span class="status-${statusLevel(status)}-text">Error ${status} ${text}</span></h2>`;
  return html`<h2>${status} ${text}</h2>`;
}

function childItem(child: ChildProfile): SafeHtml {
  if (!child.stored) return html`<span class="child">${profileLink(child.token)} <span class="empty">(${child.reason})</span></span> `;
  return html`<span class="child">${profileLink(child.token)} (${child.method} → ${child.statusCode})</span> `;
}

function item(label: string, value: SafeHtml | string): SafeHtml {
  return html`<div class="item"><dt>${label}</dt><dd>${value}</dd></div>`;
}

const GROUPED = new Intl.NumberFormat('en-US');

/** Says that the profile was cut to fit its byte budget, and what went. */
function renderCut(cut: ProfileCut): SafeHtml {
  const stacks = cut.stacks === undefined ? '' : `; the call stacks of ${cut.stacks} call(s) were left out (their origins kept)`;
  const dropped = `${stacks}${cut.collectors.length === 0 ? '' : `; left out: ${cut.collectors.join(', ')}`}`;
  return html`<p class="cut" data-cut="${cut.originalBytes}">Cut to fit PROFILER_MAX_PROFILE_BYTES: the whole profile took ${GROUPED.format(cut.originalBytes)} bytes; ${cut.strings} long value(s) end with “… (cut: N more bytes)”${dropped}.</p>`;
}

/**
 * The top of a profile page, as Symfony's request summary: the status ("Error 404 Not Found"
 * for errors), method and URL, client IP, when, token, duration, its parent or children,
 * and what profiling it cost.
 */
export function renderProfileSummary(profile: Profile, children: readonly ChildProfile[]): SafeHtml {
  const time = formatTime(profile.time);
  const referer = collectorData<RequestCollectorData>(profile, REQUEST_COLLECTOR)?.headers['referer'];
  const url = WEB_URL.test(profile.url) && (profile.method === 'GET' || profile.method === 'HEAD') ? html`<a href="${profile.url}">${profile.url}</a>` : profile.url;
  return html`<section class="${statusLevel(profile.statusCode) === '' ? 'summary' : `summary status-${statusLevel(profile.statusCode)}`}">
${statusHeading(profile)}
<p class="request-line"><strong class="method">${profile.method}</strong> <span class="url">${url}</span></p>
<dl>
${item('IP', html`<a href="${searchPath('ip', profile.ip)}">${profile.ip}</a>`)}
${item('Profiled on', html`<time datetime="${time.iso}" title="${time.iso}">${time.rfc}</time>`)}
${item('Token', html`<span class="mono token">${profile.token}</span>`)}
${item('Duration', html`<span class="duration" title="Until the response was sent; the Performance panel's Total adds kernel.terminate">${formatMs(profile.duration)}</span>`)}
${item('Profiler cost', `${formatMs(profile.profilerCost.collect)} (collect)`)}
${typeof referer !== 'string' ? '' : item('Referer', WEB_URL.test(referer) ? html`<a href="${referer}" rel="noreferrer">${referer}</a>` : referer)}
</dl>
${profile.parent === null ? '' : html`<p class="parent">Sub-request of ${profileLink(profile.parent)} (the error sub-request that rendered its error).</p>`}
${profile.cut === undefined ? '' : renderCut(profile.cut)}
${children.length === 0 ? '' : html`<p class="children">Sub-requests (error rendering): ${children.map(childItem)}</p>`}
</section>`;
}
