import { type Profile } from '../profile';
import { eventsPanel } from './events-panel';
import { exceptionPanel } from './exception-panel';
import { logsPanel } from './logs-panel';
import { machinePanel } from './machine-panel';
import { type PanelDefinition } from './panel-definition';
import { requestPanel } from './request-panel';
import { routerPanel } from './router-panel';

/** The panels in menu order (Symfony's collector priorities: request, exception, logs, events, router). */
export const PANELS: readonly PanelDefinition[] = [requestPanel, exceptionPanel, logsPanel, eventsPanel, routerPanel, machinePanel];

/** The panel named `name`, or `undefined`. */
export function findPanel(name: string): PanelDefinition | undefined {
  return PANELS.find((panel) => panel.name === name);
}

/** As Symfony's panelAction: `exception` when the request had an error, else `request`. */
export function defaultPanelName(profile: Profile): string {
  return profile.errors.length > 0 ? exceptionPanel.name : requestPanel.name;
}
