import { type Request } from './request';
import { type Response } from './response';

/** Where a finished response goes: the adapter writes it to the client once. */
export interface Connection {
  /** Writes `response` for `request`; returns false when the client is already gone. */
  write(response: Response, request: Request): boolean;
}
