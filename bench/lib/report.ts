/** One line of the results table: the median of the rounds. */
export interface Row {
  readonly server: string;
  readonly path: 'unrouted' | 'routed';
  readonly requestsPerSecond: number;
  /** CPU time of the server process per request, in microseconds (user + system, from /proc). */
  readonly cpuUsPerRequest: number;
  /** cpuUsPerRequest of each round, in the order of the rounds: ratios pair the rounds of two rows. */
  readonly cpuUsPerRound: readonly number[];
  /**
   * CPU time per request of where the server's traces go, read apart and not in cpuUsPerRequest:
   * the Redis server for Loupe (when it runs on this machine), the OTLP sink for Fastify +
   * OpenTelemetry; NaN for the rest.
   */
  readonly storeUsPerRequest: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly peakRssMiB: number;
  readonly errors: number;
}

export interface SoakResult {
  readonly seconds: number;
  /** Median RSS of the second minute (readings every 10 s). */
  readonly rssAfterOneMinuteMiB: number;
  /** Median RSS of the last minute. */
  readonly rssAtEndMiB: number;
  /** Lowest and highest reading. */
  readonly minMiB: number;
  readonly maxMiB: number;
  readonly growth: number;
  readonly withinTenPercent: boolean;
}

/** Whether a debug server stored a profile for every request it answered during the rounds. */
export interface ProfileCheck {
  readonly server: string;
  readonly expectedAtLeast: number;
  readonly stored: number;
  readonly dropped: number;
  readonly notProfiled: number;
  readonly complete: boolean;
}

/** Whether the traced peer's sink got the spans of every request it answered (a full queue drops them). */
export interface SpanCheck {
  readonly server: string;
  readonly requests: number;
  readonly expectedAtLeast: number;
  readonly spans: number;
  readonly complete: boolean;
}

export interface Report {
  readonly date: string;
  readonly machine: string;
  readonly tool: string;
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
  readonly rows: readonly Row[];
  /** Each debug server's profile check (none when BENCH_SERVERS left them out). */
  readonly profiles: readonly ProfileCheck[];
  /** The traced peer's span check (null when BENCH_SERVERS left it out). */
  readonly spans: SpanCheck | null;
  /** The start order's seed (BENCH_SEED) and the order it gave. */
  readonly seed: number;
  readonly startOrder: readonly string[];
  readonly soak: SoakResult | null;
}

/** The middle value (the mean of the two middle values of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  if (sorted.length % 2 === 1) return sorted[Math.floor(middle)] ?? NaN;
  return ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/**
 * Theirs ÷ ours of CPU per request: the median of each round's ratio, the two measured one right
 * after the other under the same load from the rest of the machine; the ratio of the medians
 * when the rounds do not pair.
 */
function cpuRatio(ours: Row, theirs: Row): number {
  if (ours.cpuUsPerRound.length === 0 || ours.cpuUsPerRound.length !== theirs.cpuUsPerRound.length) return theirs.cpuUsPerRequest / ours.cpuUsPerRequest;
  return median(ours.cpuUsPerRound.map((cpu, round) => (theirs.cpuUsPerRound[round] ?? NaN) / cpu));
}

/** Wide enough for the longest server name. */
const NAME_WIDTH = 26;

const find = (rows: readonly Row[], server: string, path: string): Row | undefined => rows.find((row) => row.server === server && row.path === path);

/**
 * The targets Loupe is measured against, as ratios of CPU per request in the same run, theirs ÷
 * ours (the "by CPU/req" column): ≥ 1 means a Loupe request costs no more CPU than the peer's.
 * "Loupe debug ≤ 2.0× Fastify + OpenTelemetry's CPU" is `min: 0.5`. On a shared machine
 * throughput follows the load of the moment; the CPU a request costs much less.
 */
const TARGETS: readonly { server: string; path: Row['path']; against: string; min: number; max?: number }[] = [
  { server: 'Loupe prod', path: 'routed', against: 'Fastify', min: 0.5 },
  { server: 'Loupe prod', path: 'routed', against: 'uWS + bare machine', min: 0.9 },
  { server: 'Loupe prod', path: 'routed', against: 'Express 5', min: 1.5 },
  { server: 'Loupe prod', path: 'unrouted', against: 'Fastify', min: 0.3 },
  { server: 'Loupe debug', path: 'routed', against: 'Fastify', min: 0.3 },
  { server: 'Loupe debug', path: 'unrouted', against: 'Fastify', min: 0.15 },
  { server: 'Loupe debug', path: 'routed', against: 'Fastify + OpenTelemetry', min: 1.0 },
  { server: 'Loupe debug', path: 'unrouted', against: 'Fastify + OpenTelemetry', min: 0.5 },
  // Loupe's profiler in a Fastify app costs no more than OpenTelemetry's tracing of it (issue: the adapters' cost).
  { server: 'Fastify + Loupe profiler', path: 'routed', against: 'Fastify + OpenTelemetry', min: 1.0 },
  { server: 'Fastify + Loupe profiler', path: 'unrouted', against: 'Fastify + OpenTelemetry', min: 1.0 },
  // The same build twice: anything but 1.00 is the bench's own bias or noise.
  { server: 'Loupe prod A', path: 'routed', against: 'Loupe prod B', min: 0.95, max: 1.05 },
  { server: 'Loupe prod A', path: 'unrouted', against: 'Loupe prod B', min: 0.95, max: 1.05 },
];

/** Each row with ratios, and the rows it is measured against (with their labels). */
const COMPARED: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  'Loupe prod': [
    ['Fastify', 'Fastify'],
    ['Express 5', 'Express 5'],
    ['raw uWS', 'raw uWS'],
    ['uWS + bare machine', 'bare machine'],
    ['Loupe prod (base)', 'before (base)'],
  ],
  'Loupe debug': [
    ['Fastify', 'Fastify'],
    ['Fastify + OpenTelemetry', 'Fastify + OpenTelemetry'],
    ['raw uWS', 'raw uWS'],
    ['uWS + bare machine', 'bare machine'],
    ['Loupe debug (base)', 'before (base)'],
  ],
  // The adapters, each against its framework alone; Fastify's also against the same app traced by OpenTelemetry.
  'Fastify + Loupe profiler': [
    ['Fastify + OpenTelemetry', 'Fastify + OpenTelemetry'],
    ['Fastify', 'Fastify alone'],
  ],
  'Express 5 + Loupe profiler': [
    ['Fastify + OpenTelemetry', 'Fastify + OpenTelemetry'],
    ['Express 5', 'Express 5 alone'],
  ],
  // The scale-out rows, each measured against Loupe debug as one process on one Redis.
  'Loupe debug WORKERS=2': [['Loupe debug', 'one process']],
  'Loupe debug cluster': [['Loupe debug', 'one Redis']],
  'Loupe prod A': [['Loupe prod B', 'Loupe prod B (A/A)']],
};

export interface Ratio {
  readonly label: string;
  /** Of throughput (req/s). */
  readonly value: number;
  /**
   * Of CPU per request, the other way round (theirs / ours): what the same ratio would be on an
   * idle machine. The median of the rounds' ratios, each of two measurements taken one after the other.
   */
  readonly cpuValue: number;
  /** The bounds cpuValue should fall within, when there is a target. */
  readonly target: { readonly min: number; readonly max: number } | null;
}

/** Ratios from the same run: Loupe against its peers, raw uWS, the bare machine, a baseline build and itself (A/A). */
export function ratios(rows: readonly Row[]): Ratio[] {
  const out: Ratio[] = [];
  for (const path of ['routed', 'unrouted'] as const) {
    for (const [server, against] of Object.entries(COMPARED)) {
      const ours = find(rows, server, path);
      if (ours === undefined) continue;
      for (const [other, label] of against) {
        const theirs = find(rows, other, path);
        if (theirs === undefined) continue;
        const target = TARGETS.find((t) => t.server === server && t.path === path && t.against === other);
        out.push({
          label: `${server} / ${label}, ${path}`,
          value: ours.requestsPerSecond / theirs.requestsPerSecond,
          cpuValue: cpuRatio(ours, theirs),
          target: target === undefined ? null : { min: target.min, max: target.max ?? Infinity },
        });
      }
    }
  }
  return out;
}

/** "target ≥ 0.50 (CPU/req ≤ 2.00× theirs): met", or a band for the A/A rows. */
function verdict(cpuValue: number, target: Ratio['target']): string {
  if (target === null) return '';
  const met = cpuValue >= target.min && cpuValue <= target.max ? 'met' : 'NOT met';
  const bound = target.max === Infinity ? `≥ ${target.min.toFixed(2)} (CPU/req ≤ ${(1 / target.min).toFixed(2)}× theirs)` : `${target.min.toFixed(2)}–${target.max.toFixed(2)}`;
  return `  (target ${bound}: ${met})`;
}

/** Prints the table, the ratios and the profile check. */
export function printReport(report: Report): void {
  console.log(`\n${report.machine}; ${report.tool}, ${report.connections} connections, median of ${report.rounds} × ${report.seconds} s\n`);
  console.log(`Start order (BENCH_SEED=${report.seed}): ${report.startOrder.join(', ')}.\n`);
  console.log(`${'server'.padEnd(NAME_WIDTH)} path       req/s  µs CPU/req  store µs/req   p50 ms   p99 ms   peak RSS MiB  errors`);
  for (const row of report.rows) {
    console.log(
      `${row.server.padEnd(NAME_WIDTH)} ${row.path.padEnd(9)} ${row.requestsPerSecond.toFixed(0).padStart(7)}  ${row.cpuUsPerRequest.toFixed(1).padStart(10)}  ${(Number.isNaN(row.storeUsPerRequest) ? '' : row.storeUsPerRequest.toFixed(1)).padStart(12)}  ${row.p50Ms.toFixed(2).padStart(7)}  ${row.p99Ms
        .toFixed(2)
        .padStart(7)}  ${row.peakRssMiB.toFixed(0).padStart(12)}  ${String(row.errors).padStart(6)}`,
    );
  }
  console.log(
    '\nµs CPU/req is the server process (and its workers) alone. Where its traces go is read apart and counted in neither: store µs/req is Redis for Loupe (when it runs here), the OTLP sink for Fastify + OpenTelemetry.',
  );
  console.log('');
  console.log(`${'ratio (ours / theirs)'.padEnd(64)} req/s   by CPU/req (theirs ÷ ours, median of the rounds' ratios; targets judged on it)`);
  for (const { label, value, cpuValue, target } of ratios(report.rows)) {
    console.log(`${label.padEnd(64)} ${value.toFixed(2).padStart(5)}×  ${cpuValue.toFixed(2).padStart(5)}×${verdict(cpuValue, target)}`);
  }
  if (report.profiles.length > 0) console.log('');
  for (const p of report.profiles) {
    console.log(
      `${p.server} profiles: ${p.stored} stored for at least ${p.expectedAtLeast} expected; ${p.dropped} dropped, ${p.notProfiled} not profiled → ${p.complete ? 'every completed request has its profile' : 'PROFILES MISSING'}`,
    );
  }
  if (report.spans !== null) {
    const s = report.spans;
    console.log(
      `${s.server} spans: ${s.spans} received by the sink for ${s.requests} requests answered (at least ${s.expectedAtLeast} expected) → ${s.complete ? 'every request exported its spans' : 'SPANS MISSING (its queue dropped some: its CPU/req flatters it)'}`,
    );
  }
  if (report.soak !== null) {
    const s = report.soak;
    console.log(
      `Soak ${s.seconds} s: RSS (median of readings every 10 s) ${s.rssAfterOneMinuteMiB.toFixed(0)} MiB in the 2nd minute, ${s.rssAtEndMiB.toFixed(0)} MiB in the last (${(s.growth * 100).toFixed(1)} %; readings ${s.minMiB.toFixed(0)}–${s.maxMiB.toFixed(0)} MiB) → ${s.withinTenPercent ? 'within 10 %' : 'NOT within 10 %'}`,
    );
  }
}
