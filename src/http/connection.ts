import { type LoupeRequest } from './request';
import { type LoupeResponse } from './response';
import { type StreamOutcome } from './response-body';

/** Where a finished response goes: the adapter writes it to the client once. */
export interface Connection {
  /**
   * Writes `response` for `request`; returns false when the client is already gone (the body is
   * then not touched). A streamed body (see isStreamBody) goes on after `write` returns: `ended`,
   * given with a streamed body only, is called once when it is over — sent whole, failed, or
   * abandoned by the client — possibly before `write` returns (a HEAD request).
   */
  write(response: LoupeResponse, request: LoupeRequest, ended?: (outcome: StreamOutcome) => void): boolean;
}
