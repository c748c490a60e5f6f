import { LoupeError } from '../../../errors/loupe-error';
import { type ProfileStorage } from '../../storage/profile-storage';

/** What the profiler's pages read from the storage. */
export type PageStorage = Pick<ProfileStorage, 'read' | 'find' | 'search' | 'latest' | 'count'>;

/** Why the profile storage could not be read: its connection is down, or it failed or did not answer in time. */
export class ProfilerStorageUnavailableError extends LoupeError {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super('LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE', `The profile storage (Redis) is unavailable: ${reason}.`, options);
  }
}

function unavailable(cause: unknown): ProfilerStorageUnavailableError {
  return new ProfilerStorageUnavailableError(cause instanceof Error ? cause.message : String(cause), { cause });
}

/**
 * The storage as the profiler's pages read it: every failure becomes a
 * ProfilerStorageUnavailableError (a 503 page, not a 500), and while `isConnected()` says the
 * connection is down a call fails at once instead of waiting for the command timeout.
 */
export function guardStorage(storage: PageStorage, isConnected: () => boolean): PageStorage {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    if (!isConnected()) throw new ProfilerStorageUnavailableError('the connection to Redis is down');
    try {
      return await call();
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    read: (token) => guard(() => storage.read(token)),
    find: (criteria) => guard(() => storage.find(criteria)),
    search: (criteria) => guard(() => storage.search(criteria)),
    latest: () => guard(() => storage.latest()),
    count: () => guard(() => storage.count()),
  };
}
