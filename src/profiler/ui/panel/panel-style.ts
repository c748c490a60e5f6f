import { pageStyle } from '../../../view/base-style';
import { LIVE_LIST_STYLE } from './live-list';

/**
 * The profiler's stylesheet, inline: a panel page loads nothing from elsewhere, works offline
 * and with a Content-Security-Policy that allows no script and no external resource. The base
 * rules, then the profiler's own.
 */
export const PANEL_STYLE = pageStyle(`
pre { margin: 0; white-space: pre-wrap; word-break: break-word; }
.header { padding: 10px 24px; display: flex; gap: 24px; align-items: baseline; }
.header a { color: #ddd; }
.layout { display: flex; align-items: flex-start; }
.sidebar { width: 220px; flex: none; padding: 16px; }
.sidebar h2 { font-size: 12px; text-transform: uppercase; color: #777; margin: 16px 0 6px; }
.menu { list-style: none; margin: 0; padding: 0; }
.menu a { display: flex; justify-content: space-between; padding: 6px 10px; border-radius: 4px; text-decoration: none; color: #222; }
.menu a:hover { background: #e5e7eb; }
.menu a[aria-current="page"] { background: #222; color: #fff; }
.badge.error { background: #b0413e; color: #fff; }
.badge.warning { background: #c28b2c; color: #fff; }
.counters { font-size: 12px; color: #555; }
.counters dt { float: left; clear: left; width: 90px; }
.counters dd { margin: 0 0 2px 90px; }
.content { flex: 1; min-width: 0; padding: 16px 24px 48px 8px; overflow-x: auto; }
.content:only-child { padding-left: 24px; }
.summary { background: #fff; border: 1px solid #e2e2e2; border-left: 6px solid #4f805d; border-radius: 4px; padding: 12px 16px; margin-bottom: 16px; }
.summary.status-error { border-left-color: #b0413e; }
.summary.status-warning { border-left-color: #c28b2c; }
.summary h2 { margin: 0 0 6px; font-size: 20px; }
.status-error-text { color: #b0413e; }
.status-warning-text { color: #a46a1f; }
.summary dl { display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 0; }
.summary dt { color: #777; font-size: 12px; }
.summary dd { margin: 0; word-break: break-all; }
.summary .item { min-width: 0; }
.notice { background: #fff8e1; border: 1px solid #f0d78c; padding: 8px 12px; border-radius: 4px; margin-bottom: 12px; }
.panel h2 { font-size: 20px; margin: 8px 0 12px; }
.panel h3 { font-size: 16px; margin: 20px 0 8px; }
th.key { width: 30%; }
thead th { white-space: nowrap; }
/* A cell breaks between words, never inside one ("Metho d"): a table wider than the column
   scrolls instead, and only a preformatted value, which may have no space at all, wraps
   anywhere. A search result's URL breaks after a slash (its <wbr>); each short value (status,
   IP, time) stays on one line. */
td pre { overflow-wrap: anywhere; }
table.results td:not(.url) { white-space: nowrap; }
table.results td.status { width: 1%; }
tr.sub td:first-child { padding-left: 28px; }
.error-message { font-size: 16px; }
.timeline { background: #fff; border: 1px solid #e2e2e2; padding: 8px 12px; margin-bottom: 12px; }
.timeline .row { display: flex; align-items: center; gap: 8px; margin: 3px 0; }
.timeline .label { width: 220px; flex: none; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.timeline .track { position: relative; flex: 1; height: 14px; background: #f3f4f6; }
.timeline .bar { position: absolute; top: 0; height: 14px; min-width: 2px; background: #4f7fb8; }
.timeline .bar.machine { background: #9a8cb8; }
details.all-spans > summary { cursor: pointer; color: #1c5fa8; margin: 4px 0 8px; }
.waterfall .row.head { font-size: 12px; color: #777; }
.waterfall .label { width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.waterfall .time.self { width: 70px; color: #999; }
.cat-phase { --span: #9a8cb8; } .cat-listener { --span: #4f7fb8; } .cat-controller { --span: #4f805d; } .cat-sub_request { --span: #333333; }
.cat-session { --span: #b8a200; } .cat-redis { --span: #c2452c; } .cat-app { --span: #17becf; }
.cat-db { --span: #d9730d; } .cat-http { --span: #7b3fa0; } .cat-cache { --span: #e0508a; }
.waterfall .bar, .legend .swatch { background: var(--span); }
.legend .swatch { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 10px; }
.timeline .time { width: 90px; flex: none; text-align: right; font-size: 12px; color: #555; }
#router-logs tr.status-warning td { background: #fff8e1; }
#router-logs tr.status-success td { background: #e8f5e9; }
#router-logs tr.closest td { background: #ffe9a8; font-weight: 600; }
#router-logs tr.closest td:first-child { box-shadow: inset 4px 0 #a46a1f; }
#router-logs .newline { display: block; }
.closest-route, .path-to-match { background: #fff; border: 1px solid #e2e2e2; padding: 8px 12px; border-radius: 4px; }
.help { color: #777; font-size: 12px; }
ol.state-path { list-style: none; margin: 0 0 16px; padding: 0; display: flex; flex-wrap: wrap; align-items: center; gap: 8px 0; }
ol.state-path li { display: flex; align-items: baseline; gap: 6px; background: #fff; border: 1px solid #d8d2e6; border-left: 4px solid #9a8cb8; border-radius: 4px; padding: 4px 10px; }
ol.state-path li + li { margin-left: 26px; position: relative; }
ol.state-path li + li::before { content: "→"; position: absolute; left: -21px; color: #999; }
ol.state-path li.error { border-left-color: #b0413e; }
ol.state-path .time { font-size: 12px; color: #555; }
.diff.slower { color: #b0413e; font-weight: 600; }
.diff.faster { color: #2e7d32; font-weight: 600; }
.call-filters { margin: 0 0 12px; display: flex; flex-wrap: wrap; gap: 6px; }
.call-filters a { padding: 3px 10px; border: 1px solid #d0d0d0; border-radius: 12px; text-decoration: none; color: #222; background: #fff; }
.call-filters a[aria-current="true"] { background: #222; color: #fff; border-color: #222; }
.flag { display: inline-block; font-size: 11px; padding: 0 6px; margin-left: 4px; border-radius: 3px; background: #e5e7eb; color: #333; }
.flag-n-1, .flag-slow, .flag-error { background: #b0413e; color: #fff; }
.flag-duplicate { background: #c28b2c; color: #fff; }
.flag-new { background: #2563eb; color: #fff; }
.flag-full-scan { background: #c28b2c; color: #fff; }
.explain-form { margin: 4px 0 0; }
.explain-form button { font-size: 12px; padding: 1px 8px; cursor: pointer; }
.plan { list-style: none; margin: 0; padding-left: 18px; border-left: 1px dotted #bbb; }
.plan-root { padding-left: 0; border-left: none; }
.plan-node { margin: 4px 0; }
.plan-node > .plan-label { font-weight: 600; font-family: monospace; }
.plan-node.full-scan > .plan-label { color: #b0413e; }
.plan-node > span:not(.flag) { font-family: monospace; font-size: 12px; color: #555; margin-left: 6px; }
.plan-details { margin: 2px 0 2px 18px; padding: 0; font-family: monospace; font-size: 12px; color: #555; list-style: square; }
table.queries pre.sql, table.query-groups pre.sql { font-size: 12px; }
.running { color: #a46a1f; font-style: italic; }
.call-error { margin: 4px 0 0; }
details.call-stack { margin-top: 2px; font-size: 12px; }
details.call-stack summary { color: #777; cursor: pointer; }
ol.stack-frames { margin: 2px 0 0; padding-left: 18px; }
.loop-origin { margin: 4px 0 0; }
textarea.curl-command { width: 100%; font-size: 12px; resize: vertical; }
form.search { background: #fff; border: 1px solid #e2e2e2; padding: 12px; margin-bottom: 16px; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: flex-end; }
.results .n-plus-one { background: #fff3cd; color: #8a5a00; border-radius: 3px; padding: 0 4px; font-size: 11px; font-weight: 600; }
form.search label { display: flex; flex-direction: column; font-size: 12px; color: #555; }
form.search label.toggle { flex-direction: row; align-items: center; gap: 6px; align-self: center; white-space: nowrap; }
form.search label.toggle input { width: auto; margin: 0; }
form.search input, form.search select { font: inherit; padding: 4px 6px; height: 30px; border: 1px solid #767676; border-radius: 2px; background: #fff; }
form.search input { width: 160px; }
form.search button { font: inherit; padding: 5px 14px; }
${LIVE_LIST_STYLE}`);
