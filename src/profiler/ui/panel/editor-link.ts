import { html, type SafeHtml } from '../../../view/html';
import { type SourceFiles } from '../../../view/source-files';

/** The editor link of a source position, or `null` when none is configured or the file is not the application's source. */
export type EditorLink = (file: string, line: number) => string | null;

/** The link every position gets without PROFILER_IDE: none. */
export const NO_EDITOR_LINK: EditorLink = () => null;

/**
 * Links positions to an editor by the PROFILER_IDE template, as Symfony's `framework.ide`
 * (FileLinkFormatter): `%f` becomes the file's absolute path, `%l` the line, `%%` a `%`. The path
 * is percent-encoded as a URL path (`/` and `:` kept), so a space or `#` in it cannot end the link
 * early; the template itself is the developer's own configuration and is used as it is. Only
 * the application's source gets a link (see SourceFiles), as only it gets its lines shown.
 */
export function createEditorLink(template: string | null, sources: SourceFiles): EditorLink {
  if (template === null) return NO_EDITOR_LINK;
  return (file, line) => {
    const path = sources.pathOf(file);
    if (path === null) return null;
    return template.replace(/%([fl%])/g, (_, key: string) => (key === 'f' ? encodeURI(path).replace(/[#?]/g, encodeURIComponent) : key === 'l' ? String(line) : '%'));
  };
}

/** `file:line`, as a link to the editor when one is configured, else as text. */
export function renderSourcePosition(editorLink: EditorLink, file: string, line: number, text = `${file}:${line}`): SafeHtml {
  const href = editorLink(file, line);
  return href === null ? html`<span class="origin">${text}</span>` : html`<a class="origin editor-link" href="${href}">${text}</a>`;
}
