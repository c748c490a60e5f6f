import { type CaptureKind } from '../profiler-config';
import { captureHttp } from './capture-http';
import { capturePostgresJs } from './capture-postgres-js';
import { captureRedis } from './capture-redis';
import { captureSql } from './capture-sql';

const STARTERS: Readonly<Record<CaptureKind, () => () => void>> = {
  http: captureHttp,
  redis: captureRedis,
  mysql2: () => captureSql({ mysql2: true, pg: false }),
  pg: () => captureSql({ mysql2: false, pg: true }),
  postgres: capturePostgresJs,
};

/** Channels and patches are the process's: shared by every Loupe application in it, stopped with the last. */
const running = new Map<CaptureKind, { users: number; stop: () => void }>();

/**
 * Starts capturing the application's I/O of `kinds` into the request whose code does it (see
 * openCall), once per process however many applications ask; answers how this one stops.
 */
export function startAppIoCapture(kinds: readonly CaptureKind[]): () => void {
  for (const kind of kinds) {
    const current = running.get(kind);
    if (current === undefined) running.set(kind, { users: 1, stop: STARTERS[kind]() });
    else current.users += 1;
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const kind of kinds) {
      const current = running.get(kind);
      if (current === undefined) continue;
      current.users -= 1;
      if (current.users > 0) continue;
      running.delete(kind);
      current.stop();
    }
  };
}
