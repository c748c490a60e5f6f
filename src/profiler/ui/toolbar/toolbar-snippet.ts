import { html, trustedHtml } from '../../../view/html';
import { profilePath, toolbarPath } from '../../profiler-paths';
import { FRAGMENT_START, toolbarAssetPath } from './toolbar-assets';

/** The magnifying glass the toolbar opens and closes with. */
const LOUPE_ICON = trustedHtml(
  '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="10" cy="10" r="6.5" fill="none" stroke="currentColor" stroke-width="2.6"/><path d="M15 15l6 6" stroke="currentColor" stroke-width="3.2" stroke-linecap="round"/></svg>',
);

/** The toolbar's first item, the icon; `/_wdt/{token}` answers start with it. */
export const BRAND_ITEM = trustedHtml(`${FRAGMENT_START} title="Loupe">${LOUPE_ICON.toString()}</span>`);

const CLOSE_ICON = trustedHtml('<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>');

function renderPlaceholder(token: string): string {
  return html`<div id="loupe-wdt-${token}" class="lwdt" role="region" aria-label="Loupe web debug toolbar" data-token="${token}" data-src="${toolbarPath(token)}" data-state="loading">\
<div class="lwdt-bar"><div class="lwdt-content">${BRAND_ITEM}\
<span class="lwdt-item lwdt-loading">Loading the toolbar&hellip;</span>\
<a class="lwdt-item lwdt-profile" href="${profilePath(token)}" title="Open the profile of this request">Profile <b>${token}</b></a></div>\
<button type="button" class="lwdt-toggle" aria-expanded="true" title="Hide the Loupe toolbar"><span class="lwdt-hide">${CLOSE_ICON}</span><span class="lwdt-show">${LOUPE_ICON}</span></button></div></div>`.toString();
}

const STYLESHEET_PATH = toolbarAssetPath('css');
const SCRIPT_PATH = toolbarAssetPath('js');

/** A profiler token: six hex digits, the same escaped in markup and encoded in a URL. */
const TOKEN = /^[0-9a-f]{6}$/;

/** The placeholder rendered once around a stand-in token, so a page costs one join, not a template. */
const PLACEHOLDER_PARTS = renderPlaceholder('lwdttoken').split('lwdttoken');

/**
 * What the WebDebugToolbarListener puts before `</body>` for the profile `token` (six hex
 * digits): the stylesheet, a placeholder bar that already links to the profile (the whole
 * toolbar without JavaScript), and the script that fills it from `/_wdt/{token}`, the two
 * files at their versioned paths (toolbarAssetPath). The bar is fixed at the bottom; the
 * placeholder keeps its height in the page so it never covers the page's last lines. ASCII
 * only, whatever the nonce: its length is its size in bytes.
 */
export function renderToolbarSnippet(token: string, nonce: string | null): string {
  if (!TOKEN.test(token)) throw new Error(`Not a profiler token: "${token}".`);
  const nonceAttribute = nonce === null ? '' : html` nonce="${nonce}"`.toString();
  return `\n<link rel="stylesheet" href="${STYLESHEET_PATH}"${nonceAttribute}>${PLACEHOLDER_PARTS.join(token)}<script src="${SCRIPT_PATH}"${nonceAttribute}></script>\n`;
}
