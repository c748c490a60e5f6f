/** True when the request's Connection header lists the `close` option (a comma-separated, case-insensitive list: RFC 9110 §7.6.1). */
export function asksToClose(headers: Readonly<Record<string, string>>): boolean {
  const connection = headers['connection'];
  return connection !== undefined && connection.split(',').some((option) => option.trim().toLowerCase() === 'close');
}

/**
 * RFC 9112 §9.6: after a request with `Connection: close` the server must not process further
 * requests on that connection and must close it after the response. uWS closes it only when the
 * response is written after it finished parsing what the connection sent. Loupe answers most
 * requests before the uWS handler returns, and a request pipelined behind such an answer resets the
 * connection's state in uWS's parser (HttpContext.h: `state = HTTP_RESPONSE_PENDING`), so the close
 * was forgotten and the next request served. uWS.js shows JavaScript neither the socket of a
 * request nor a way to close it once answered, so the guard tells it by what it can see: the
 * answered connection is still open after the write (uWS's `filter` reports every close, and an
 * answer written after the parse closes the connection within the write), and the next request
 * uWS hands over before any connection closes, in the same turn of the loop and from the same peer
 * address, is that connection's (uWS hands over one connection's pipelined requests in a row and
 * closes it once its parse is over). Residual: after an answer too large for the socket's buffer,
 * which keeps it open until drained, another connection from the same address in the same turn
 * would be taken for it.
 */
export class CloseGuard {
  #peer: string | null = null;
  #closedDuringWrite = false;

  /**
   * uWS's `filter` saw a connection close: within a write, the answered one; after it, the answered
   * one once uWS finished its parse (closing it), or another, which only makes the guard forget early.
   */
  connectionClosed(): void {
    this.#closedDuringWrite = true;
    this.#peer = null;
  }

  /** Runs `write` (the corked answer to a request from `peer` that asked to close) and remembers the peer if its connection is still open. */
  answered(peer: string, write: () => void): void {
    this.#closedDuringWrite = false;
    write();
    if (this.#closedDuringWrite) return;
    this.#peer = peer;
    // uWS has finished parsing that connection's bytes by the loop's check phase.
    setImmediate(() => (this.#peer = null));
  }

  /** True when a request from `peer` is one pipelined behind an answer that closes its connection: it must not run. */
  isPipelinedAfterClose(peer: string): boolean {
    if (this.#peer === null) return false;
    // uWS hands over one connection's pipelined requests one after the other: another peer means that parse is over.
    if (this.#peer !== peer) this.#peer = null;
    return this.#peer !== null;
  }
}
