import { AssertionError } from 'node:assert';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Profile } from '../profile';
import { parseProfile } from '../profile-schema';
import { type ReadResult } from '../storage/profile-storage';
import { withProfileStorage } from '../ui/cli/with-profile-storage';
import { debugTokenOf, type DebugTokenSource } from './debug-token-of';

/** What profiles are read from in-process: a Loupe application's `profiler` (`createLoupe(…).profiler`). */
export interface ProfileReader {
  read(token: string): Promise<ReadResult>;
}

/** Where the test helper reads profiles, and how long it waits for one. */
export interface ReadProfileOptions {
  /**
   * The application under test, when it runs in the test's process: its profiler's storage is
   * read. Without it, the Redis the server writes to is: `redisUrl` and `prefix`, else
   * REDIS_URL (or REDIS_CLUSTER_NODES) and REDIS_PREFIX of `env`, as `loupe profiler:show` reads them.
   */
  readonly app?: { readonly profiler: { readonly storage: ProfileReader } | null };
  readonly redisUrl?: string;
  readonly prefix?: string;
  /** Where REDIS_URL and REDIS_PREFIX are read; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds to wait for the profile to be stored (written after the response is sent); 5000 by default. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
/** Between two reads of a profile not stored yet: the writer stores in batches of a few milliseconds. */
const POLL_MS = 20;

function failure(message: string): AssertionError {
  return new AssertionError({ message, operator: 'expectProfile' });
}

/** Reads `token` until it is stored, dropped, or `timeoutMs` passed. */
async function waitFor(reader: ProfileReader, token: string, timeoutMs: number, where: string): Promise<Profile> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await reader.read(token);
    if (found.kind === 'found') {
      const parsed = parseProfile(found.json);
      if (!parsed.ok) throw failure(`The profile ${token} ${where} cannot be read: ${parsed.error}.`);
      return parsed.profile;
    }
    if (found.kind === 'dropped') throw failure(`The profile ${token} ${where} was dropped: ${found.reason}.`);
    if (Date.now() >= deadline) {
      throw failure(`No profile ${token} was stored ${where} within ${timeoutMs} ms: does the server store its profiles there (the same REDIS_URL and REDIS_PREFIX)?`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * The stored profile of `source` (a response's X-Debug-Token), once the server stored it; an
 * AssertionError when the response has no token or no profile is stored within the timeout.
 */
export async function readTestProfile(source: DebugTokenSource, options: ReadProfileOptions = {}): Promise<Profile> {
  const token = debugTokenOf(source);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.app !== undefined) {
    const { profiler } = options.app;
    if (profiler === null) throw failure('The application runs without its profiler (debug is off): it stores no profile.');
    return waitFor(profiler.storage, token, timeoutMs, "in the application's profiler");
  }
  const flags = { ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }), ...(options.prefix === undefined ? {} : { prefix: options.prefix }) };
  return withProfileStorage(options.env ?? process.env, flags, ({ storage, redisUrl, prefix }) => waitFor(storage, token, timeoutMs, `under the prefix "${prefix}" of ${redisUrl}`));
}
