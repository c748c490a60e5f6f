import { collectorData, type Profile } from '../profile';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../collectors/exception-collector';
import { eventsPanel } from './events-panel';
import { exceptionPanel } from './exception-panel';
import { logsPanel } from './logs-panel';
import { machinePanel } from './machine-panel';
import { type PanelDefinition } from './panel-definition';
import { requestPanel } from './request-panel';
import { routerPanel } from './router-panel';

/**
 * Loupe's panels in menu order (Symfony's collector priorities: request, exception, logs,
 * events, router), each reading one of defaultCollectors; an application adds its own after them.
 */
export const DEFAULT_PANELS: readonly PanelDefinition[] = [requestPanel, exceptionPanel, logsPanel, eventsPanel, routerPanel, machinePanel];

/** The panel named `name` among `panels`, or `undefined`. */
export function findPanel(panels: readonly PanelDefinition[], name: string): PanelDefinition | undefined {
  return panels.find((panel) => panel.name === name);
}

/**
 * As Symfony's panelAction: `exception` when the request had an error, else `request`; the
 * first panel when the list has neither.
 */
export function defaultPanel(panels: readonly PanelDefinition[], profile: Profile): PanelDefinition | undefined {
  const errors = collectorData<ExceptionCollectorData>(profile, EXCEPTION_COLLECTOR)?.errors ?? [];
  const exception = errors.length > 0 ? findPanel(panels, exceptionPanel.name) : undefined;
  return exception ?? findPanel(panels, requestPanel.name) ?? panels[0];
}
