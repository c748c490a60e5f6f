import { type Listener } from '../kernel/listener';
import { type ProfilerParts } from './check-profiler-parts';
import { createProfilerListener } from './collect/profiler-listener';
import { RedactionPolicy } from './collect/redaction-policy';
import { Sampler, type SamplingStats } from './collect/sampler';
import { ProfilerCore } from './core/profiler-core';
import { capturedLibraries, type ProfilerConfig } from './profiler-config';
import { type ProfileStorage } from './storage/profile-storage';
import { type TokenSource } from './storage/token-source';
import { debugTokenLinkListener } from './ui/debug-token-link-listener';
import { errorPageProfileLinkListener } from './ui/error-page-profile-link-listener';
import { type LiveFeed } from './ui/live/live-feed';
import { type LivePublisher } from './ui/live/live-publisher';
import { type PanelDefinition } from './ui/panel/panel-definition';
import { ProfileWriter, type StorageConnection, type WriterStats } from './write/profile-writer';

/** The profiler's counters: what was stored, dropped, or never profiled. */
export interface ProfilerStats {
  readonly writer: Readonly<WriterStats>;
  /** Requests served without a token because their profile could not have been stored. */
  readonly notProfiled: number;
  /** What sampling (PROFILER_SAMPLE) left out, and what it kept although not drawn. */
  readonly sampling: Readonly<SamplingStats>;
}

/** The assembled profiler: its core, the listeners by which Loupe's kernel drives it, where it stores, and its counters. */
export interface Profiler {
  /** What every server drives: tokens, finished requests, and a handle per request for a server that is not Loupe's kernel. */
  readonly core: ProfilerCore;
  readonly listeners: readonly Listener[];
  /** Where profiles are read (the pages, the JSON API). */
  readonly storage: ProfileStorage;
  readonly writer: ProfileWriter;
  /** The panels of the profile page, in menu order, checked against the collectors. */
  readonly panels: readonly PanelDefinition[];
  /** Summaries of profiles as they are stored (every process sharing the store). */
  readonly live: LiveFeed;
  stats(): ProfilerStats;
  /** Stores what is queued (bounded), then closes the store's connections. */
  close(): Promise<void>;
}

/** Where a profiler keeps its profiles: Redis (profiler.ts) or this process's memory (memory-profiler.ts). */
export interface ProfileStore {
  /** What the writer writes to (in Redis, on the writer's own connection). */
  readonly writeStorage: ProfileStorage;
  /** What the pages read. */
  readonly readStorage: ProfileStorage;
  readonly tokens: TokenSource;
  /** The writer's connection; none when the store cannot be lost. */
  readonly connection?: StorageConnection;
  /** Told of each batch stored, for the live lists; none where the storage announces its batches itself (Redis). */
  readonly publisher?: LivePublisher;
  readonly live: LiveFeed;
  /** Why a request is not profiled while the writer cannot take its profile. */
  readonly notProfiledReason: string;
  /** Milliseconds the writer is given at close to store what is queued. */
  readonly stopGraceMs: number;
  /** Closes the store's connections once the writer stopped. */
  close(): Promise<void>;
}

/**
 * The profiler on `store`: the writer, the core every server drives, and the listeners of Loupe's
 * kernel, with `parts` checked (see checkProfilerParts). What goes wrong is told to `log`, a line
 * a second at most: a dead store under load would otherwise flood the console.
 */
export function assembleProfiler(config: ProfilerConfig, store: ProfileStore, parts: ProfilerParts, log: (line: string) => void): Profiler {
  let notProfiled = 0;
  let lastLog = 0;
  const throttledLog = (line: string): void => {
    const now = Date.now();
    if (now - lastLog < 1_000) return;
    lastLog = now;
    log(line);
  };
  const writer: ProfileWriter = new ProfileWriter({
    storage: store.writeStorage,
    ...(store.connection === undefined ? {} : { connection: store.connection }),
    maxProfileBytes: config.maxProfileBytes,
    ...(store.publisher === undefined ? {} : { live: store.publisher }),
    onDrop: (count, reason) => throttledLog(`Profiler: ${count} profile(s) dropped (${writer.stats.dropped} in all): ${reason}`),
  });
  const core = new ProfilerCore({
    allocator: store.tokens,
    writer,
    collectors: parts.collectors,
    redaction: new RedactionPolicy({ names: config.redact, visibleCookies: config.cookieAllowList }),
    sampler: new Sampler({ rate: config.sample, slowMs: config.slowMs }),
    capture: capturedLibraries(config),
    recordLimit: config.maxEntries,
    notProfiledReason: store.notProfiledReason,
    onNotProfiled: (reason) => {
      notProfiled += 1;
      throttledLog(`Profiler: request served without a profile (${notProfiled} in all): ${reason}`);
    },
  });
  return {
    core,
    listeners: [createProfilerListener(core), debugTokenLinkListener, errorPageProfileLinkListener],
    storage: store.readStorage,
    writer,
    panels: parts.panels,
    live: store.live,
    stats: () => ({ writer: { ...writer.stats }, notProfiled, sampling: { ...core.samplingStats } }),
    close: async () => {
      await writer.stop(store.stopGraceMs);
      await store.close();
    },
  };
}
