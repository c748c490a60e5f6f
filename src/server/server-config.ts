/** Where the server listens and what it accepts. */
export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Largest accepted request body, in bytes; a route's controller may accept less. */
  readonly maxBodySize: number;
}
