import { type Profile } from '../../profile';
import { type SafeHtml } from '../../../view/html';
import { type EditorLink } from './editor-link';
import { type ChildProfile } from './load-profile';
import { type SourcePosition, type SourceReader } from '../../../view/read-source-excerpts';

/** What a panel is rendered from: the profile, its collector's entry, and its sub-request profiles. */
export interface PanelContext<TData extends object = object> {
  /** The profile the page shows. */
  readonly profile: Profile;
  /** The entry the panel's collector stored in this profile. */
  readonly data: TData;
  /** The profile's error sub-requests, each as its summary, or why it could not be read. */
  readonly children: readonly ChildProfile[];
  /** The page's query (`?panel=db&filter=slow`): a panel filters on the server, with no script. */
  readonly query: URLSearchParams;
  /** The editor link of a source position (PROFILER_IDE), or `null`. */
  readonly editorLink: EditorLink;
  /** The lines around the positions `sources` named, read when the page was requested. */
  readonly source: SourceReader;
  /**
   * The newest profile of the same route stored before this one (see previousProfileOf), read
   * only for a panel that sets `readsPrevious`; absent when there is none or it cannot be read.
   */
  readonly previous?: Profile;
}

/**
 * A count shown beside a panel's label in the menu, and whether it signals a problem: red for
 * an error (an exception, a failed call), amber for a warning (an N+1 loop, a slow call).
 */
export interface PanelBadge {
  /** The number shown. */
  readonly count: number;
  /** Shows the badge red; wins over `isWarning`. */
  readonly isError: boolean;
  /** Shows the badge amber when it is not an error. */
  readonly isWarning?: boolean;
}

/**
 * One panel of the profile page, as a Symfony data collector's template: it names the
 * collector whose entry it reads (`TData` is what that collector's `collect` answers). A
 * profile without that entry gets a "no data" page instead; `render` and `badge` only ever
 * see the entry.
 *
 * `badge` and `render` are methods so that a `PanelDefinition<RequestCollectorData>` is a
 * `PanelDefinition` in the registry (method parameters are compared both ways): the page hands
 * each panel the entry stored under its collector's name, trusted to be that collector's data.
 */
export interface PanelDefinition<TData extends object = object> {
  /** The `?panel=` value. */
  readonly name: string;
  /** The menu label. */
  readonly label: string;
  /** The name of the collector whose entry the panel reads. */
  readonly collector: string;
  /** The menu badge for this entry, or `null` for none; without the method the label stands alone. */
  badge?(data: TData, profile: Profile): PanelBadge | null;
  /** Source positions whose surrounding lines `render` shows (`context.source`); read from disk before it runs. */
  sources?(data: TData): readonly SourcePosition[];
  /** Whether `render` reads `context.previous`: the page reads that profile for such a panel only, it costs a second read. */
  readonly readsPrevious?: boolean;
  /** The panel's markup, built with `html` so that every value is escaped. */
  render(context: PanelContext<TData>): SafeHtml;
  /** The entry as lines of text for `profiler:show` (an application's CLI built with runCli); without it the entry is only named there. */
  text?(data: TData, profile: Profile): readonly string[];
}
