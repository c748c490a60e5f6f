import { type SafeHtml } from '../../../view/html';
import { type Profile } from '../../profile';

/**
 * One item of the web debug toolbar, after Loupe's own (Symfony's data collector toolbar
 * templates): rendered from the stored profile, usually from its own collector's entry.
 */
export interface ToolbarItem {
  /** Identifies the item, e.g. `cache`; not shown in the toolbar. */
  readonly name: string;
  /** The item's markup (a `<span class="lwdt-item">` or an `<a>` to a panel), or `null` to show nothing for this profile. */
  render(profile: Profile): SafeHtml | null;
}
