import { html, type SafeHtml } from '../../../view/html';

/** The editor link of a source position, or `null` when none is configured or the file is not on disk (`node:`). */
export type EditorLink = (file: string, line: number) => string | null;

/** The link every position gets without PROFILER_IDE: none. */
export const NO_EDITOR_LINK: EditorLink = () => null;

/** A stack's `file://` URL as the path an editor opens; a path as it is. */
function filePath(file: string): string {
  if (!file.startsWith('file://')) return file;
  try {
    return decodeURIComponent(new URL(file).pathname);
  } catch {
    return file;
  }
}

/**
 * Links positions to an editor by the PROFILER_IDE template, as Symfony's `framework.ide`
 * (FileLinkFormatter): `%f` becomes the file's absolute path, `%l` the line, `%%` a `%`. The path
 * is percent-encoded as a URL path (`/` and `:` kept), so a space or `#` in it cannot end the link
 * early; the template itself is the developer's own configuration and is used as it is.
 */
export function createEditorLink(template: string | null): EditorLink {
  if (template === null) return NO_EDITOR_LINK;
  return (file, line) => {
    const path = filePath(file);
    if (!(path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path))) return null;
    return template.replace(/%([fl%])/g, (_, key: string) => (key === 'f' ? encodeURI(path).replace(/[#?]/g, encodeURIComponent) : key === 'l' ? String(line) : '%'));
  };
}

/** `file:line`, as a link to the editor when one is configured, else as text. */
export function renderSourcePosition(editorLink: EditorLink, file: string, line: number, text = `${file}:${line}`): SafeHtml {
  const href = editorLink(file, line);
  return href === null ? html`<span class="origin">${text}</span>` : html`<a class="origin editor-link" href="${href}">${text}</a>`;
}
