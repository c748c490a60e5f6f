import { lastBodyEnd } from '../ui/web-debug-toolbar-listener';

/**
 * `body` with the toolbar's `snippet` before its last `</body>` (in any letter case), or `null`
 * when it has none: a fragment or a page cut short is sent as it is.
 */
export function insertToolbar(body: Buffer, snippet: string): Buffer | null;
export function insertToolbar(body: string, snippet: string): string | null;
export function insertToolbar(body: string | Buffer, snippet: string): string | Buffer | null {
  const at = lastBodyEnd(body);
  if (at === -1) return null;
  return typeof body === 'string' ? body.slice(0, at) + snippet + body.slice(at) : Buffer.concat([body.subarray(0, at), Buffer.from(snippet), body.subarray(at)]);
}
