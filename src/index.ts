/**
 * Loupe's public API: the only module an application imports. Everything else under src/ is
 * internal and may change without notice.
 */
export { createLoupe, type Loupe, type LoupeOptions, type SecurityOptions, type ListenerTableRow } from './loupe/create-loupe';
export { type InjectRequest, type InjectResponse } from './loupe/inject';
export { readConfig, resolveConfig, type Config, type AppEnv } from './config/config';
export {
  type LoupeConfigInput,
  type ServerConfigInput,
  type RedisConfigInput,
  type LocaleConfigInput,
  type SessionConfigInput,
  type SecurityConfigInput,
  type LogConfigInput,
} from './config/config-input';
export { type Env } from './config/env-values';
export { type ServerConfig } from './server/server-config';
export { type RedisConfig, type RedisTimeouts } from './redis/redis-config';
export { type RedisClusterConfig, type ClusterNode } from './redis/cluster-nodes';
export { type LocaleOptions } from './kernel/listeners/locale-listener';
export { type SessionConfig } from './session/session-config';
export { type SecurityConfig } from './security/security-config';
export { CAPTURE_KINDS, CAPTURE_LIBRARIES, type CaptureKind, type CaptureLibrary, type CaptureName, type ProfilerConfig, type ProfilerConfigInput, type ExplainConfig, type ExplainDatabase, type ExplainDialect } from './profiler';
export { serve, type CreateApp, type ServeOptions, type Serving } from './loupe/serve';
export { type LoupePlugin, type PluginContext, type PluginRuntime } from './loupe/plugin';
export { type WebSocketRoute, type WebSocketClient, type WebSocketUpgrade } from './server/web-socket-route';
export { runCli, type CliOptions } from './cli/main';
export { type CliCommand, type CliContext } from './cli/command';
export { type CliIo } from './cli/cli-io';
export { type CommandArgs, type OptionSpecs, type ConnectionFlags } from './cli/parse-command-args';
export { type RedisClient } from './redis/redis-client';

// The terminal log.
export { createLogger, type LoggerDestination } from './log/create-logger';
export { type Logger, type LogMethod } from './log/logger';
export { LOGGER_LEVELS, LOG_FORMATS, type LogConfig, type LoggerLevel, type LogFormat } from './log/log-config';

// Requests, responses and errors.
export { LoupeRequest } from './http/request';
export { type RequestData } from './http/request-data';
export { type HeaderBag } from './http/header-bag';
export { LoupeResponse } from './http/response';
export { type ResponseBody, type StreamBody } from './http/response-body';
export { type AuthenticatedUser, type Session } from './http/session';
export { type SessionStorage, type SessionData } from './session/session-storage';
export {
  HttpError,
  httpError,
  type HttpErrorOptions,
  BadRequestHttpError,
  UnauthorizedHttpError,
  ForbiddenHttpError,
  NotFoundHttpError,
  MethodNotAllowedHttpError,
  PayloadTooLargeHttpError,
  ServiceUnavailableHttpError,
  TooManyRequestsHttpError,
} from './errors/http-error';
export { LoupeError } from './errors/loupe-error';
export { ERROR_CODES, type ErrorCode } from './errors/error-codes';

// Routes, controllers and listeners.
export { type RouteDefinition } from './routing/route';
export { type Router, type RouteMatch, type RouteMiss, type RouteDescription } from './routing/router';
export { routeMiss } from './routing/route-miss';
export { isTraceable, type TraceableRouter } from './routing/traceable-router';
export { RouteTraceLevel, type RouteTrace, type RouteTraceEntry } from './routing/route-trace';
export { type RequestContext } from './routing/request-context';
export { MethodNotAllowedError } from './routing/method-not-allowed-error';
export { ResourceNotFoundError } from './routing/resource-not-found-error';
export { type Controller, type ControllerArguments, type ControllerHandler } from './kernel/controller';
export { defineListener, type Listener, type PhaseHandler, type Subscription, type Subscriptions } from './kernel/listener';
export { KernelEvents, type KernelPhase } from './kernel/kernel-events';
export { attributeKey, Attributes, type AttributeKey } from './kernel/attributes';
export { KernelAttributes } from './kernel/kernel-attributes';
export { type LogLevel, type ListenerRecord, type LogRecord, type PhaseRecord, type SpanRecord } from './kernel/trace';
export { type PhaseEventMap } from './kernel/event/phase-event-map';
export { currentRequest, type CurrentRequest } from './kernel/request-context';
export { type CollectedRequest, type RequestTimings, type ReadonlyAttributes, type StreamedBody } from './kernel/collected-request';
export { type RecordedEntries } from './kernel/request-records';
export { SPAN_CATEGORIES, type SpanCategory, type Stopwatch } from './kernel/stopwatch';
export { KernelEvent } from './kernel/event/kernel-event';
export { RequestEvent } from './kernel/event/request-event';
export { ControllerEvent } from './kernel/event/controller-event';
export { ControllerArgumentsEvent } from './kernel/event/controller-arguments-event';
export { ViewEvent } from './kernel/event/view-event';
export { ResponseEvent } from './kernel/event/response-event';
export { FinishRequestEvent } from './kernel/event/finish-request-event';
export { ExceptionEvent } from './kernel/event/exception-event';
export { TerminateEvent } from './kernel/event/terminate-event';

// Security.
export { type FirewallConfig, type AccessRule } from './security/firewall-map';
export { InMemoryUserProvider, type UserProvider, type SecurityUser, type LoadedUser } from './security/user-provider';
export { CredentialsVerifier, type CredentialsVerifierOptions } from './security/credentials-verifier';
export { hashPassword, type ScryptCost } from './security/password-hasher';
export { SecurityAttributes } from './security/security-attributes';

// The profiler: an application's own collectors and panels.
export { type ProfileCollector, type ToolbarItem } from './profiler';
export { type RedactionPolicy, type RedactionOptions } from './profiler';
export { type PanelDefinition, type PanelContext, type PanelBadge } from './profiler';
export { type ChildProfile } from './profiler';
export { type EditorLink } from './profiler';
export { type SourcePosition, type SourceReader, type SourceExcerpt } from './profiler';
export { PROFILE_VERSION, type Profile, type ProfileVersion, type CollectorEntry, type ProfileCut, type ProfileSummary } from './profiler';

export { ProfilerPaths, profilePath } from './profiler';

// Pages.
export { html, trustedHtml, type SafeHtml, type HtmlValue } from './view/html';
