import test from 'ava';
import { flattenError } from '../../src/error-handler/flatten-error';
import { HTML_ERROR_PAGE_STYLE } from '../../src/error-handler/html-error-page-style';
import { renderHtmlError } from '../../src/error-handler/html-error-renderer';
import { PANEL_STYLE } from '../../src/profiler/ui/panel/panel-style';
import { renderPanelLayout } from '../../src/profiler/ui/panel/panel-layout';
import { BASE_STYLE } from '../../src/view/base-style';
import { html } from '../../src/view/html';
import { renderStackTrace } from '../../src/view/render-stack-trace';

/** Every `selector property` a stylesheet declares, once per declaration (the sheets are flat: no at-rules). */
function declarations(css: string): string[] {
  return css
    .split('}')
    .filter((rule) => rule.trim() !== '')
    .flatMap((rule) => {
      const [selectors = '', body = ''] = rule.split('{');
      const properties = body
        .split(';')
        .map((declaration) => declaration.split(':')[0]?.trim() ?? '')
        .filter((property) => property !== '');
      return selectors.split(',').flatMap((selector) => properties.map((property) => `${selector.trim()} ${property}`));
    });
}

function styleOf(page: string): string {
  return /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
}

const pages = {
  'debug error page': renderHtmlError(flattenError(new Error('x')), { debug: true }),
  'public error page': renderHtmlError(flattenError(new Error('x')), { debug: false }),
  'profiler page': renderPanelLayout({ content: html`<p>content</p>` }),
};

for (const [name, page] of Object.entries(pages)) {
  test(`the ${name} starts its stylesheet with the base rules`, (t) => {
    t.true(styleOf(page).startsWith(BASE_STYLE));
  });
}

for (const [name, style] of Object.entries({ 'error page': HTML_ERROR_PAGE_STYLE.toString(), profiler: PANEL_STYLE.toString() })) {
  test(`the ${name} stylesheet declares no property twice for the same selector, base included`, (t) => {
    const all = declarations(style);
    t.true(all.length > declarations(BASE_STYLE).length, 'the page adds rules of its own');
    t.deepEqual(
      all.filter((declaration, index) => all.indexOf(declaration) !== index),
      [],
    );
  });
}

test('the base rules cover every class the stack trace renderer uses', (t) => {
  const markup = `${renderStackTrace([{ function: 'f', file: 'node:x', line: 1, column: 1 }]).toString()}${renderStackTrace([]).toString()}`;
  const classes = new Set([...markup.matchAll(/class="([^"]*)"/g)].flatMap((match) => (match[1] ?? '').split(' ')));
  const selectors = declarations(BASE_STYLE).join('\n');
  for (const name of classes) t.regex(selectors, new RegExp(`\\.${name}(?![\\w-])`), name);
});
