import { measure } from './load';
import { memoryOf, type BenchServer } from './processes';
import { type SoakResult } from './report';

/**
 * Full load on the unrouted path of `server` for `seconds` (at least 2 minutes), in one-minute
 * slices: RSS after the first minute against RSS at the end.
 */
export async function soak(server: BenchServer, seconds: number, connections: number): Promise<SoakResult> {
  const total = Math.max(seconds, 120);
  const url = `http://127.0.0.1:${server.port}/config.yaml`;
  await measure({ url, seconds: 60, connections });
  const afterOneMinute = memoryOf(server.child.pid).rss;
  for (let done = 60; done < total; done += 60) await measure({ url, seconds: Math.min(60, total - done), connections });
  const atEnd = memoryOf(server.child.pid).rss;
  const growth = (atEnd - afterOneMinute) / afterOneMinute;
  return { seconds: total, rssAfterOneMinuteMiB: afterOneMinute, rssAtEndMiB: atEnd, growth, withinTenPercent: Math.abs(growth) <= 0.1 };
}
