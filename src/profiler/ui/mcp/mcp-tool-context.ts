import { type ConnectionFlags } from '../../../cli/parse-command-args';
import { type Env } from '../../../config/env-values';
import { type PanelDefinition } from '../panel/panel-definition';
import { withProfileStorage, type OpenedStorage } from '../cli/with-profile-storage';

/** What every tool of the MCP server reads: the environment, where the profiles are, and the application's panels. */
export interface McpToolContext {
  /** The server's environment: REDIS_URL, REDIS_PREFIX, PROFILER_EXPLAIN_DATABASE_URL… */
  readonly env: Env;
  /** Its panels' text, for a profile's sections (as profiler:show). */
  readonly panels: readonly PanelDefinition[];
  /**
   * Runs `use` with the profile storage, connected for this call only and closed after: a Redis
   * that is down fails one call, with the message that says how to start one, and the next call
   * connects again.
   */
  withStorage<T>(use: (opened: OpenedStorage) => Promise<T>): Promise<T>;
}

/** The context of the tools on the Redis `env` and `connection` (the `--redis-url` and `--prefix` of `loupe mcp`) name. */
export function mcpToolContext(env: Env, connection: ConnectionFlags, panels: readonly PanelDefinition[]): McpToolContext {
  return { env, panels, withStorage: (use) => withProfileStorage(env, connection, use) };
}
