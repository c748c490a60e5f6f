/**
 * What a plugin or an application gives the profiler, as types only: collectors, panels and
 * toolbar items, and the profile they read. Loupe's plugin contract and CLI import these from
 * here, not from the profiler's entry, so that nothing imports in a circle: the entry imports the
 * plugin contract and the CLI's command type in turn.
 */
export { type ProfileCollector } from './collector';
export { type PanelDefinition, type PanelContext, type PanelBadge } from './ui/panel/panel-definition';
export { type ToolbarItem } from './ui/toolbar/toolbar-item';
