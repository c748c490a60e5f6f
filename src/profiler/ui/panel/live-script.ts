import { createHash } from 'node:crypto';

/**
 * The search page's live list, in the browser: a WebSocket to the path in `data-live` of the
 * `.live` section; each summary it announces becomes a row at the top of the results table, of
 * the same shape as a stored row (status code with its reason phrase from `data-status-text` as
 * its title, IP, method, path (the whole URL as its title), time, duration, queries, token;
 * its columns read from the table's header, so the list follows the table); the result count
 * above the table and the pager below it count it, and the table keeps one page (`data-limit`),
 * hiding its oldest rows. Off the first page of the newest first (`data-insert` empty) a new
 * request is counted only. As the stored rows, error sub-requests and /favicon.ico requests are
 * left out unless the search shows them (`data-sub-requests`, `data-favicon`). A row is hidden
 * unless it passes the section's filters;
 * the pause button holds new rows (at most 500) until resumed. Rows are built with textContent
 * only: nothing a request carried is parsed as markup. Plain ES2017 with no interpolation, so
 * that its hash in the CSP is fixed.
 */
export const LIVE_SCRIPT = `(function () {
  'use strict';
  var root = document.querySelector('section.live[data-live]');
  if (!root) return;
  var MAX_HELD = 500;
  var limit = parseInt(root.getAttribute('data-limit'), 10) || 50, page = parseInt(root.getAttribute('data-page'), 10) || 1;
  var insert = root.getAttribute('data-insert') === '1';
  var field = function (name) { return root.querySelector('[name="live-' + name + '"]'); };
  var method = field('method'), status = field('status'), path = field('path'), minMs = field('min-ms');
  var pause = root.querySelector('.live-pause'), state = root.querySelector('.live-state');
  var showSubs = root.getAttribute('data-sub-requests') === '1', showFavicon = root.getAttribute('data-favicon') === '1';
  var reasons = {};
  try { reasons = JSON.parse(root.getAttribute('data-status-text') || '{}'); } catch (e) { reasons = {}; }
  var paused = false, held = [], retry = 1000;
  var summaries = new WeakMap();

  function setState(name, text) { root.setAttribute('data-live-state', name); state.textContent = text; }

  function body() {
    var table = document.querySelector('table.results');
    if (!table) {
      table = document.createElement('table');
      table.className = 'results';
      var head = table.createTHead().insertRow();
      ['Status', 'IP', 'Method', 'URL', 'Time', 'Duration', 'Queries', 'Token'].forEach(function (name) {
        var th = document.createElement('th'); th.textContent = name; head.appendChild(th);
      });
      table.appendChild(document.createElement('tbody'));
      var anchor = document.querySelector('.result-count') || root;
      anchor.parentNode.insertBefore(table, anchor.nextSibling);
    }
    return table.tBodies[0] || table.appendChild(document.createElement('tbody'));
  }

  function count() {
    var heading = document.querySelector('.result-count');
    if (!heading) return;
    var total = (parseInt(heading.getAttribute('data-total'), 10) || 0) + 1;
    heading.setAttribute('data-total', String(total));
    heading.textContent = total + (total === 1 ? ' result found' : ' results found');
    var range = document.querySelector('.pager [data-range]');
    if (!range) return;
    var first = (page - 1) * limit + 1, last = Math.min(total, page * limit);
    range.setAttribute('data-range', first + '-' + last);
    range.textContent = first + '\\u2013' + last + ' of ' + total + ', page ' + page + ' of ' + Math.max(1, Math.ceil(total / limit));
  }

  // The table holds one page: the rows past the page's size, the oldest, are hidden, as the filters hide live rows.
  function fit() {
    var shown = 0;
    document.querySelectorAll('table.results tbody tr').forEach(function (tr) {
      var s = summaries.get(tr), passes = !s || matches(s);
      if (passes) shown++;
      tr.hidden = !passes || shown > limit;
    });
  }

  function matches(s) {
    var m = method.value.trim().toUpperCase(), c = status.value, p = path.value, min = parseFloat(minMs.value);
    if (m !== '' && s.method.toUpperCase() !== m) return false;
    if (c !== '' && String(Math.floor(s.status / 100)) !== c) return false;
    if (p !== '' && s.path.indexOf(p) === -1) return false;
    if (!isNaN(min) && s.durationMs < min) return false;
    return true;
  }

  function listed(s) {
    if (s.sub && !showSubs) return false;
    if (!showFavicon && s.path.split('?')[0] === '/favicon.ico') return false;
    return true;
  }

  function ms(value) {
    if (value >= 1000) return (value / 1000).toFixed(2) + ' s';
    return (value < 10 ? value.toFixed(2) : value.toFixed(1)) + ' ms';
  }

  function link(token) {
    var a = document.createElement('a');
    a.className = 'mono'; a.href = '/_profiler/' + encodeURIComponent(token); a.textContent = token;
    return a;
  }

  function fill(td, column, s) {
    if (column === 'status') {
      var none = s.aborted || s.status === 0;
      td.textContent = none ? 'aborted' : String(s.status);
      td.title = none ? 'No response: the client disconnected' : (reasons[s.status] || '');
      td.className = 'status' + (none || s.status >= 500 ? ' level-error' : s.status >= 400 ? ' level-warning' : '');
    } else if (column === 'ip') td.textContent = s.ip || '–';
    else if (column === 'method') td.textContent = s.method;
    else if (column === 'url' || column === 'path') {
      td.className = 'mono url'; td.title = s.url || s.path;
      // A line may break after a slash, a question mark or an ampersand, never inside a word.
      s.path.replace(/([/?&])/g, '$1\\u0000').split('\\u0000').forEach(function (part, i) {
        if (i > 0) td.appendChild(document.createElement('wbr'));
        td.appendChild(document.createTextNode(part));
      });
    }
    else if (column === 'time') {
      var time = document.createElement('time'), iso = new Date(s.time).toISOString();
      time.setAttribute('datetime', iso); time.textContent = iso; td.appendChild(time);
    } else if (column === 'duration') { td.className = 'duration'; td.textContent = ms(s.durationMs); }
    else if (column === 'queries') {
      td.className = 'queries';
      if (typeof s.queries !== 'number') { td.textContent = '\\u2013'; td.title = 'No query was captured'; return; }
      td.setAttribute('data-queries', String(s.queries));
      td.textContent = String(s.queries);
      if (s.queries > 0 && typeof s.queryTime === 'number') {
        var time = document.createElement('span'); time.className = 'empty'; time.textContent = ms(s.queryTime);
        td.appendChild(document.createTextNode(' ')); td.appendChild(time);
      }
      if (s.nPlusOne > 0) {
        var mark = document.createElement('span'); mark.className = 'n-plus-one'; mark.textContent = 'N+1';
        mark.title = s.nPlusOne + ' query shape' + (s.nPlusOne === 1 ? '' : 's') + ' run in a loop';
        td.appendChild(document.createTextNode(' ')); td.appendChild(mark);
      }
    }
    else if (column === 'token') {
      if (s.sub) td.appendChild(document.createTextNode('\\u21b3 '));
      td.appendChild(link(s.token));
      if (s.sub && s.parent) {
        var note = document.createElement('span');
        note.className = 'empty'; note.appendChild(document.createTextNode(' sub-request of ')); note.appendChild(link(s.parent));
        td.appendChild(note);
      }
    }
  }

  function add(s) {
    if (!listed(s)) return;
    if (!insert) { count(); return; }
    var tbody = body(), tr = document.createElement('tr');
    var columns = Array.prototype.map.call(tbody.parentNode.querySelectorAll('thead th'), function (th) { return th.textContent.trim().toLowerCase(); });
    tr.className = 'live ' + (s.sub ? 'sub' : 'main');
    tr.setAttribute('data-token', s.token);
    columns.forEach(function (column) { var td = tr.insertCell(); fill(td, column, s); });
    summaries.set(tr, s);
    tbody.insertBefore(tr, tbody.firstChild);
    count();
    var rows = tbody.rows;
    // Rows far below the page are dropped, so a page left open does not grow without end.
    for (var i = rows.length - 1; i >= limit + MAX_HELD; i--) rows[i].remove();
    fit();
  }

  function apply() { fit(); }

  function receive(event) {
    var list;
    try { list = JSON.parse(event.data); } catch (e) { return; }
    if (!Array.isArray(list)) return;
    list.forEach(function (s) {
      if (!s || typeof s.token !== 'string' || typeof s.path !== 'string' || typeof s.method !== 'string') return;
      if (paused) { held.push(s); if (held.length > MAX_HELD) held.shift(); } else add(s);
    });
    if (paused) state.textContent = 'paused (' + held.length + ' new)';
  }

  function connect() {
    var socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + root.getAttribute('data-live'));
    socket.onopen = function () { retry = 1000; setState('open', paused ? 'paused' : 'connected'); };
    socket.onmessage = receive;
    socket.onclose = function () {
      setState('closed', 'disconnected; retrying in ' + Math.round(retry / 1000) + ' s');
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  [method, status, path, minMs].forEach(function (input) { input.addEventListener('input', apply); });
  pause.addEventListener('click', function () {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    pause.setAttribute('aria-pressed', String(paused));
    if (root.getAttribute('data-live-state') === 'open') state.textContent = paused ? 'paused' : 'connected';
    if (!paused) { var waiting = held; held = []; waiting.forEach(add); }
  });
  connect();
})();
`;

/** The script's CSP source: the page allows this script and no other. */
export const LIVE_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(LIVE_SCRIPT).digest('base64')}'`;
