import { collectorData, type Profile } from '../../profile';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../../collect/collectors/exception-collector';
import { databasePanel } from './database-panel';
import { eventsPanel } from './events-panel';
import { exceptionPanel } from './exception-panel';
import { httpClientPanel } from './http-client-panel';
import { logsPanel } from './logs-panel';
import { machinePanel } from './machine-panel';
import { type PanelDefinition } from './panel-definition';
import { performancePanel } from './performance-panel';
import { redisPanel } from './redis-panel';
import { requestPanel } from './request-panel';
import { routerPanel } from './router-panel';

/**
 * Loupe's panels in menu order (Symfony's collector priorities: request, performance, exception,
 * logs, then what the application did — database, HTTP client, cache — then events, router), each
 * reading one of defaultCollectors; an application adds its own after them.
 */
export const DEFAULT_PANELS: readonly PanelDefinition[] = [
  requestPanel,
  performancePanel,
  exceptionPanel,
  logsPanel,
  databasePanel,
  httpClientPanel,
  redisPanel,
  eventsPanel,
  routerPanel,
  machinePanel,
];

/** Symfony's collector names for Loupe's panels, so that its links (`?panel=logger`) open them. */
const SYMFONY_NAMES: Readonly<Record<string, string>> = { logger: 'logs', time: 'performance' };

/** The panel named `name` among `panels` (or by Symfony's name for it), or `undefined`. */
export function findPanel(panels: readonly PanelDefinition[], name: string): PanelDefinition | undefined {
  const wanted = panels.some((panel) => panel.name === name) ? name : (SYMFONY_NAMES[name] ?? name);
  return panels.find((panel) => panel.name === wanted);
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
