import { type Profile } from '../profile';
import { type SafeHtml } from '../../view/html';
import { type ChildProfile } from './load-profile';

/** What a panel is rendered from: the profile, its collector's entry, and its sub-request profiles. */
export interface PanelContext<TData extends object = object> {
  readonly profile: Profile;
  /** The entry the panel's collector stored in this profile. */
  readonly data: TData;
  readonly children: readonly ChildProfile[];
}

/** A count shown beside a panel's label in the menu, and whether it signals a problem. */
export interface PanelBadge {
  readonly count: number;
  readonly isError: boolean;
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
  badge?(data: TData, profile: Profile): PanelBadge | null;
  render(context: PanelContext<TData>): SafeHtml;
}
