import { LoupeError, type Config } from '../../src';
import { DemoCache } from './demo-cache';
import { DemoDatabase } from './demo-database';
import { UserRepository } from './user-repository';

/** Where the demo calls its upstream: on itself, once it listens (there is no other network to call). */
export class UpstreamAddress {
  #url: string | null = null;

  /** The server's URL as listen() answered it; an address of every interface is reached on loopback. */
  listeningOn(url: string): void {
    const parsed = new URL(url);
    if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
    if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
    this.#url = parsed.origin;
  }

  /** `null` before listen() (an inject() has no socket to call back). */
  get url(): string | null {
    return this.#url;
  }
}

/**
 * The demo's own I/O, created and closed by the demo application, never shared with Loupe's:
 * a Redis client for its cache, a PostgreSQL pool when DATABASE_URL is set, its upstream's address.
 */
export class DemoIo {
  readonly cache: DemoCache;
  /** `null` without DATABASE_URL: the SQL routes answer 503. */
  readonly users: UserRepository | null;
  readonly upstream = new UpstreamAddress();
  readonly #database: DemoDatabase | null;

  constructor(config: Config, databaseUrl: string | null, warn: (message: string) => void) {
    // The demo shows Redis in its profiles: it does not run without one.
    if (config.redis === null) throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', 'The demo keeps its cache in Redis: set REDIS_URL (it is empty).');
    this.cache = new DemoCache(config.redis, warn);
    this.#database = databaseUrl === null ? null : new DemoDatabase(databaseUrl, warn);
    this.users = this.#database === null ? null : new UserRepository(this.#database);
  }

  async close(): Promise<void> {
    await Promise.all([this.cache.close(), this.#database?.close()]);
  }
}
