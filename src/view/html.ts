import { escapeHtml } from './escape-html';

/** Markup that is safe to emit as it is: built by `html`, or a constant marked with `trustedHtml`. */
export class SafeHtml {
  readonly #markup: string;

  constructor(markup: string) {
    this.#markup = markup;
  }

  /** The markup, as written into the page. */
  toString(): string {
    return this.#markup;
  }
}

/** What a template may interpolate; `null`, `undefined` and booleans render nothing, so `cond && html\`…\`` works. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  if (value === null || value === undefined || typeof value === 'boolean') return '';
  return escapeHtml(String(value));
}

/**
 * A tagged template that escapes every interpolated value unless it is SafeHtml. The panel
 * shows nothing but request data (URLs, headers, messages); escaping by default means a
 * forgotten `escapeHtml` cannot open a hole, only a deliberate `trustedHtml` could.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks a constant of this code base (the stylesheet) as markup. Never for anything a request carried. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
