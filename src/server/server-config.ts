/** Where the server listens and what it accepts. */
export interface ServerConfig {
  /** The address to bind (HOST, `127.0.0.1` by default; `0.0.0.0` for every interface). */
  readonly host: string;
  /** The TCP port (PORT, 8000 by default); 0 picks a free one. */
  readonly port: number;
  /** Largest accepted request body, in bytes; a route's controller may accept less. */
  readonly maxBodySize: number;
  /**
   * Server processes sharing the port (WORKERS; `auto` = the cores Node reports). One is a plain
   * process; more are run by a supervisor (see `serve`), each with its own kernel and profile writer.
   */
  readonly workers: number;
}
