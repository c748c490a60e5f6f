import { type CliCommand } from '../cli/command';
import { type Config } from '../config/config';
import { type Listener } from '../kernel/listener';
import { type Logger } from '../log/logger';
import { type PanelDefinition, type ProfileCollector, type ToolbarItem } from '../profiler/contract';
import { type RedisClient } from '../redis/redis-client';
import { type RouteDefinition } from '../routing/route';
import { type WebSocketRoute } from '../server/web-socket-route';

/** What a plugin is given when the application starts. */
export interface PluginContext {
  /** The application's configuration, frozen; `config.env` holds settings a plugin reads for itself. */
  readonly config: Config;
  /** The application's terminal logger. */
  readonly logger: Logger;
  /**
   * The application's Redis connection (one server or a cluster), connected; its owner closes it.
   * `null` when the application runs without Redis (`config.redis` null, REDIS_URL empty): a plugin
   * then keeps what it stores in memory, or says that it needs Redis.
   */
  readonly redis: RedisClient | null;
  /** Every plugin's collectors, in order (the profiler's own first): what the profiler records. */
  readonly collectors: readonly ProfileCollector[];
  /** Every plugin's panels, in menu order. */
  readonly panels: readonly PanelDefinition[];
  /** Every plugin's toolbar items. */
  readonly toolbarItems: readonly ToolbarItem[];
}

/** What a started plugin adds to the running application, and how it stops. */
export interface PluginRuntime {
  /** Listeners, added after Loupe's own defaults. */
  readonly listeners?: readonly Listener[];
  /** Routes, matched before the application's own (the profiler's `/_profiler/…`). */
  readonly routes?: readonly RouteDefinition[];
  /** WebSocket routes the server opens beside the HTTP ones (the profiler's live feed). */
  readonly webSockets?: readonly WebSocketRoute[];
  /**
   * Entries a request keeps of each kind of record (`currentRequest().record()`: a library's
   * calls): the smallest any plugin asks for applies; 500 when none asks.
   */
  readonly recordLimit?: number;
  /** Stops what the plugin started; called once the server stopped and every request finished. */
  close?(): Promise<void>;
}

/**
 * A part of an application packaged once (Fastify's `register`, a Symfony bundle): the profiler
 * is one, and an application or a library writes its own the same way. What it records and
 * shows (collectors, panels, toolbar items) and its CLI commands are known before the start,
 * so that they can be checked then and run without a server; `start` adds what needs the
 * running application: listeners, routes, WebSocket routes.
 */
export interface LoupePlugin {
  /** Names the plugin in errors. */
  readonly name: string;
  /** Collectors recorded into every profile (with debug, where the profiler runs). */
  readonly collectors?: readonly ProfileCollector[];
  /** Panels of the profile page, each reading one collector's entry. */
  readonly panels?: readonly PanelDefinition[];
  /** Items of the web debug toolbar. */
  readonly toolbarItems?: readonly ToolbarItem[];
  /** Commands of a CLI built with `runCli(argv, { plugins })`. */
  readonly commands?: readonly CliCommand[];
  /**
   * Called once, in plugin order, when the application first listens or injects; a plugin that
   * throws stops the start, and those already started are closed.
   */
  start?(context: PluginContext): PluginRuntime | Promise<PluginRuntime>;
}
