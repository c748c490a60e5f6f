import { STATUS_TEXT } from '../errors/status-text';

/** The status line uWS expects, e.g. `404 Not Found`. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? 'Unknown Status'}`;
}
