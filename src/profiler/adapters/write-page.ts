import { type ServerResponse } from 'node:http';
import { type PageResponse } from '../core/profiler-pages';

/** Writes one of the profiler's pages on a node:http response, a header given several times as one array. */
export function writePage(res: ServerResponse, page: PageResponse): void {
  const headers = new Map<string, string[]>();
  for (const [name, value] of page.headers) headers.set(name, [...(headers.get(name) ?? []), value]);
  for (const [name, values] of headers) res.setHeader(name, values.length === 1 ? (values[0] ?? '') : values);
  res.writeHead(page.status).end(page.body);
}
