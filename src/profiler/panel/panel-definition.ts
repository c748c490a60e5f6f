import { type Profile } from '../profile';
import { type SafeHtml } from '../../view/html';
import { type ChildProfile } from './load-profile';

/** What a panel is rendered from: the profile and summaries of its sub-request profiles. */
export interface PanelContext {
  readonly profile: Profile;
  readonly children: readonly ChildProfile[];
}

/** One panel of the profile page, as a Symfony data collector's template. */
export interface PanelDefinition {
  /** The `?panel=` value. */
  readonly name: string;
  /** The menu label. */
  readonly label: string;
  /** A count shown beside the label in the menu, and whether it signals a problem. */
  readonly badge?: (profile: Profile) => { readonly count: number; readonly isError: boolean } | null;
  readonly render: (context: PanelContext) => SafeHtml;
}
