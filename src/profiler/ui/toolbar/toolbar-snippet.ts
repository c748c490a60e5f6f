import { html, trustedHtml } from '../../../view/html';
import { profilePath, toolbarPath } from '../../profiler-paths';
import { TOOLBAR_STYLE } from './toolbar-style';

/** The magnifying glass the toolbar opens and closes with. */
const LOUPE_ICON = trustedHtml(
  '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" stroke-width="2.6"/><path d="M15 15l6 6" stroke="currentColor" stroke-width="3.2" stroke-linecap="round"/></svg>',
);

/** How the toolbar and its content fragment start: the script shows an answer only if it starts so. */
const FRAGMENT_START = '<span class="lwdt-item lwdt-brand"';

/** The toolbar's first item, the icon; `/_wdt/{token}` answers start with it. */
export const BRAND_ITEM = trustedHtml(`${FRAGMENT_START} title="Loupe">${LOUPE_ICON.toString()}</span>`);

const CLOSE_ICON = trustedHtml('<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>');

/**
 * Runs right after the placeholder it follows: applies the remembered collapsed state before the
 * first paint, then fetches the toolbar's content. The profile is stored after the response, so
 * `/_wdt/{token}` waits for it a little and answers 404 if it is still missing: the script asks
 * again a few times (as Symfony's Sfjs.loadToolbar does). Any answer that is the toolbar's own
 * fragment is shown, a 404 or 410 saying why there is no profile too; anything else (the
 * access listener's 403 page) leaves the placeholder saying the toolbar is unavailable.
 * The same text for every page, so that a nonce is all a Content-Security-Policy needs.
 */
const SCRIPT = `(function () {
  var script = document.currentScript, root = script && script.previousElementSibling;
  if (!root || !root.classList.contains('lwdt')) return;
  var FRAGMENT = ${JSON.stringify(FRAGMENT_START)}, key = 'loupe/toolbar/collapsed', toggle = root.querySelector('.lwdt-toggle');
  var remember = function (value) { try { localStorage.setItem(key, value ? '1' : '0'); } catch (e) {} };
  var show = function (collapsed) {
    root.classList.toggle('lwdt-collapsed', collapsed);
    toggle.setAttribute('aria-expanded', String(!collapsed));
    toggle.setAttribute('title', collapsed ? 'Show the Loupe toolbar' : 'Hide the Loupe toolbar');
  };
  try { show(localStorage.getItem(key) === '1'); } catch (e) {}
  toggle.addEventListener('click', function () {
    var collapsed = !root.classList.contains('lwdt-collapsed');
    remember(collapsed);
    show(collapsed);
  });
  var fail = function (why) {
    var loading = root.querySelector('.lwdt-loading');
    if (!loading) return;
    loading.textContent = 'Toolbar unavailable: ' + why;
    loading.classList.add('lwdt-failed');
    root.setAttribute('data-state', 'failed');
  };
  var load = function (tries) {
    fetch(root.getAttribute('data-src'), { credentials: 'same-origin', cache: 'no-store', headers: { 'X-Requested-With': 'XMLHttpRequest' } })
      .then(function (response) {
        if (response.status === 404 && tries < 3) return setTimeout(function () { load(tries + 1); }, 250 * tries);
        return response.text().then(function (text) {
          if (text.lastIndexOf(FRAGMENT, 0) !== 0) return fail('HTTP ' + response.status);
          root.querySelector('.lwdt-content').innerHTML = text;
          root.setAttribute('data-state', response.ok ? 'loaded' : 'failed');
        });
      })
      .catch(function (error) { fail(error && error.message ? error.message : 'network error'); });
  };
  load(1);
})();`;

/** The page carries these once per response, ASCII only (a non-ASCII character would make V8 store the whole page as two-byte text): whitespace is collapsed (the script has no `//` comment and ends every statement with `;`). */
const STYLE_END = `>${TOOLBAR_STYLE.replace(/\s*\n\s*/g, '')}</style>`;
const SCRIPT_END = `>${SCRIPT.replace(/\s*\n\s*/g, ' ')}</script>\n`;

function renderPlaceholder(token: string): string {
  return html`<div id="loupe-wdt-${token}" class="lwdt" role="region" aria-label="Loupe web debug toolbar" data-token="${token}" data-src="${toolbarPath(token)}" data-state="loading">\
<div class="lwdt-bar"><div class="lwdt-content">${BRAND_ITEM}\
<span class="lwdt-item lwdt-loading">Loading the toolbar&hellip;</span>\
<a class="lwdt-item lwdt-profile" href="${profilePath(token)}" title="Open the profile of this request">Profile <b>${token}</b></a></div>\
<button type="button" class="lwdt-toggle" aria-expanded="true" title="Hide the Loupe toolbar"><span class="lwdt-hide">${CLOSE_ICON}</span><span class="lwdt-show">${LOUPE_ICON}</span></button></div></div>`.toString();
}

/** A profiler token: six hex digits, the same escaped in markup and encoded in a URL. */
const TOKEN = /^[0-9a-f]{6}$/;

/** The placeholder rendered once around a stand-in token, so a page costs one join, not a template. */
const PLACEHOLDER_PARTS = renderPlaceholder('lwdttoken').split('lwdttoken');

/**
 * What the WebDebugToolbarListener puts before `</body>` for the profile `token` (six hex
 * digits): the stylesheet, a placeholder bar that already links to the profile (the whole
 * toolbar without JavaScript), and the script that fills it from `/_wdt/{token}`. The bar is
 * fixed at the bottom; the placeholder keeps its height in the page so it never covers the
 * page's last lines. ASCII only, whatever the nonce: its length is its size in bytes.
 */
export function renderToolbarSnippet(token: string, nonce: string | null): string {
  if (!TOKEN.test(token)) throw new Error(`Not a profiler token: "${token}".`);
  const nonceAttribute = nonce === null ? '' : html` nonce="${nonce}"`.toString();
  return `\n<style${nonceAttribute}${STYLE_END}${PLACEHOLDER_PARTS.join(token)}<script${nonceAttribute}${SCRIPT_END}`;
}
