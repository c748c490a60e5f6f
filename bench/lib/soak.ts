import { measure } from './load';
import { memoryOf, type BenchServer } from './processes';
import { type SoakResult } from './report';

/** How often RSS is read during the soak. */
const SAMPLE_MS = 10_000;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/**
 * Full load on the unrouted path of `server` for `seconds` (at least 2 minutes), RSS read every
 * 10 s: the median of the second minute against the median of the last. One reading swings by
 * several MiB with the young generation's collections; a median of six does not, and a heap that
 * keeps growing still shows.
 */
export async function soak(server: BenchServer, seconds: number, connections: number): Promise<SoakResult> {
  const total = Math.max(seconds, 120);
  const url = `http://127.0.0.1:${server.port}/config.yaml`;
  const samples: { at: number; rss: number }[] = [];
  const started = Date.now();
  const timer = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: memoryOf(server.child.pid).rss }), SAMPLE_MS);
  try {
    for (let done = 0; done < total; done += 60) await measure({ url, seconds: Math.min(60, total - done), connections });
  } finally {
    clearInterval(timer);
  }
  const secondMinute = median(samples.filter((s) => s.at > 60 && s.at <= 120).map((s) => s.rss));
  const lastMinute = median(samples.filter((s) => s.at > total - 60).map((s) => s.rss));
  const growth = (lastMinute - secondMinute) / secondMinute;
  const all = samples.map((s) => s.rss);
  return {
    seconds: total,
    rssAfterOneMinuteMiB: secondMinute,
    rssAtEndMiB: lastMinute,
    minMiB: Math.min(...all),
    maxMiB: Math.max(...all),
    growth,
    withinTenPercent: Math.abs(growth) <= 0.1,
  };
}
