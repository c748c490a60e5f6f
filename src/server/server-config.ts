/** Where the server listens and what it accepts. */
export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Largest accepted request body, in bytes; a route's controller may accept less. */
  readonly maxBodySize: number;
  /**
   * Server processes sharing the port (WORKERS; `auto` = the cores Node reports). One is a plain
   * process; more are run by a supervisor (see `serve`), each with its own kernel and profile writer.
   */
  readonly workers: number;
}
