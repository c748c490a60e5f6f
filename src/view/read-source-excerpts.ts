import { type SourceFiles } from './source-files';

/** A place in a source file a panel wants to show the lines around. */
export interface SourcePosition {
  /** An absolute path or `file://` URL, as a stack frame names it; only the application's own source is read. */
  readonly file: string;
  /** 1-based line number; 0 or less asks for no lines. */
  readonly line: number;
}

/** Lines of a file around a position: `first` is the number of `lines[0]`. */
export interface SourceExcerpt {
  /** 1-based number of the first line in `lines`. */
  readonly first: number;
  /** The 1-based line asked for, to highlight. */
  readonly line: number;
  /** Up to three lines before and after `line`, each cut at 300 characters. */
  readonly lines: readonly string[];
}

/** The excerpt around a position the page asked for, or `null` (not asked for, unreadable, too large). */
export type SourceReader = (file: string, line: number) => SourceExcerpt | null;

export const NO_SOURCE: SourceReader = () => null;

/** Lines shown before and after the position. */
const RADIUS = 3;
/** Files read for one page: a deep stack of the application's own frames still renders quickly. */
const MAX_FILES = 20;
/** A minified line would fill the page. */
const MAX_LINE_CHARS = 300;

/**
 * Reads the lines around each position from disk when the page is rendered, not when the
 * profile was collected: profiles stay small, and the source shown is the one an editor link
 * opens (read again once a second at most: see SourceFiles.lines). Read asynchronously before rendering, since panels render synchronously. Only the
 * application's source is read (see SourceFiles): a position elsewhere is shown without lines.
 */
export async function readSourceExcerpts(positions: readonly SourcePosition[], sources: SourceFiles): Promise<SourceReader> {
  const files = [...new Set(positions.filter((position) => position.line > 0).map((position) => position.file))].slice(0, MAX_FILES);
  const contents = new Map(await Promise.all(files.map(async (file) => [file, await sources.lines(file)] as const)));
  return (file, line) => {
    const lines = contents.get(file);
    if (lines === undefined || lines === null || line < 1 || line > lines.length) return null;
    const first = Math.max(1, line - RADIUS);
    const last = Math.min(lines.length, line + RADIUS);
    return { first, line, lines: lines.slice(first - 1, last).map((text) => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text)) };
  };
}
