import { createHash } from 'node:crypto';
import { NotFoundHttpError } from '../../../errors/http-error';
import { LoupeResponse } from '../../../http/response';
import { type Controller } from '../../../kernel/controller';
import { TOOLBAR_PREFIX } from '../../profiler-paths';
import { TOOLBAR_STYLE } from './toolbar-style';

/** How the toolbar and its content fragment start: the script shows an answer only if it starts so. */
export const FRAGMENT_START = '<span class="lwdt-item lwdt-brand"';

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

/**
 * The toolbar's stylesheet and script, served as files that the browser keeps (createToolbarAssetController):
 * a page carries two tags, not 5.7 KB of them on every response. ASCII only, the script's whitespace
 * collapsed (it has no `//` comment and ends every statement with `;`).
 */
export const TOOLBAR_CSS = TOOLBAR_STYLE.replace(/\s*\n\s*/g, '');
export const TOOLBAR_JS = SCRIPT.replace(/\s*\n\s*/g, ' ');

type AssetKind = 'css' | 'js';

const CONTENT_TYPES: Readonly<Record<AssetKind, string>> = { css: 'text/css; charset=UTF-8', js: 'text/javascript; charset=UTF-8' };

/** The files' version: a digest of both, in their paths, so that a page never gets another version's. */
const VERSION = createHash('sha256').update(TOOLBAR_CSS).update('\0').update(TOOLBAR_JS).digest('hex').slice(0, 12);

/** The route of the files: `/_wdt/assets/toolbar.<version>.css` and `.js`. */
export const TOOLBAR_ASSET_ROUTE = `${TOOLBAR_PREFIX}/assets/{file}`;

/** What `{file}` of TOOLBAR_ASSET_ROUTE may be: the route matches no other name. */
export const TOOLBAR_ASSET_FILE = 'toolbar\\.[0-9a-f]{12}\\.(?:css|js)';

/** Where the page finds the toolbar's stylesheet or script. */
export function toolbarAssetPath(kind: AssetKind): string {
  return `${TOOLBAR_PREFIX}/assets/toolbar.${VERSION}.${kind}`;
}

/**
 * Serves the toolbar's stylesheet and script. A path names its version: the files of this
 * version are kept a year by the browser (`immutable`), any other version is a 404, as after
 * an upgrade a page of the old one would otherwise get the new files under the old name.
 */
export function createToolbarAssetController(): Controller {
  const files = new Map<string, { readonly body: string; readonly type: string }>(
    (['css', 'js'] as const).map((kind) => [`toolbar.${VERSION}.${kind}`, { body: kind === 'css' ? TOOLBAR_CSS : TOOLBAR_JS, type: CONTENT_TYPES[kind] }]),
  );
  return {
    name: 'toolbar_asset',
    handle: ({ params }) => {
      const file = files.get(params['file'] ?? '');
      // Another version: the 404 every unknown path gets.
      if (file === undefined) throw new NotFoundHttpError(`No toolbar file "${params['file'] ?? ''}": this server's are of version ${VERSION}.`);
      return new LoupeResponse(file.body, 200, { 'Content-Type': file.type, 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' });
    },
  };
}
