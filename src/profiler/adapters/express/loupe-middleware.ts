import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type StartedProfiler } from '../../core/start-profiler';
import { type ProfileServerOptions } from '../node/profile-server';

/** Express's `next`: an error given to it goes to the error middleware. */
export type ExpressNext = (error?: unknown) => void;

/** The options of `loupe()`: those of `profileServer` (`enabled`, `env`, `storage`, `collectors`, `log`, `pages`, `serverTiming`). */
export type LoupeOptions = ProfileServerOptions;

/** Express's error middleware, as `loupe().errors()` makes it. */
export type ErrorMiddleware = (error: unknown, req: IncomingMessage, res: ServerResponse, next: ExpressNext) => void;

/** The middleware `loupe()` answers, with what its owner may do besides mounting it. */
export interface LoupeMiddleware {
  (req: IncomingMessage, res: ServerResponse, next: ExpressNext): void;
  /** Starts the profiler now rather than on the first request (an invalid setting then fails here); `null` when off. */
  start(): Promise<StartedProfiler | null>;
  /**
   * An error middleware that records the error it is given and passes it on: only needed with a
   * router that publishes no tracing channel (Express 4, or Express 5 on `router` before 2.3).
   * Mount it after the routes and before the application's own error middleware.
   */
  errors(): ErrorMiddleware;
  /** Stops profiling (requests then go through untouched) and closes the profiler. */
  close(): Promise<void>;
}
