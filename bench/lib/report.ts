/** One line of the results table: the median of the rounds. */
export interface Row {
  readonly server: string;
  readonly path: 'unrouted' | 'routed';
  readonly requestsPerSecond: number;
  /** CPU time of the server process per request, in microseconds (user + system, from /proc). */
  readonly cpuUsPerRequest: number;
  /** CPU time of the Redis server per request, when it runs on this machine (Loupe rows only; else NaN). */
  readonly redisUsPerRequest: number;
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
  readonly soak: SoakResult | null;
}

/** Wide enough for the longest server name. */
const NAME_WIDTH = 23;

const find = (rows: readonly Row[], server: string, path: string): Row | undefined => rows.find((row) => row.server === server && row.path === path);

/** The targets Loupe is measured against, as ratios of throughput in the same run. */
const TARGETS: readonly { server: string; path: Row['path']; against: string; target: number }[] = [
  { server: 'Loupe prod', path: 'routed', against: 'Fastify', target: 0.5 },
  { server: 'Loupe prod', path: 'routed', against: 'uWS + bare machine', target: 0.9 },
  { server: 'Loupe prod', path: 'unrouted', against: 'Fastify', target: 0.3 },
  { server: 'Loupe debug', path: 'routed', against: 'Fastify', target: 0.3 },
  { server: 'Loupe debug', path: 'unrouted', against: 'Fastify', target: 0.15 },
];

/** The scale-out rows, each measured against Loupe debug as one process on one Redis. */
const VARIANTS_OF_DEBUG: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  'Loupe debug WORKERS=2': [['Loupe debug', 'one process']],
  'Loupe debug cluster': [['Loupe debug', 'one Redis']],
};

export interface Ratio {
  readonly label: string;
  /** Of throughput (req/s). */
  readonly value: number;
  /** Of CPU per request, the other way round (theirs / ours): what the same ratio would be on an idle machine. */
  readonly cpuValue: number;
  readonly target: number | null;
}

/** Ratios from the same run: Loupe against Fastify, raw uWS, the bare machine, and a baseline build. */
export function ratios(rows: readonly Row[]): Ratio[] {
  const out: Ratio[] = [];
  for (const path of ['routed', 'unrouted'] as const) {
    for (const server of ['Loupe prod', 'Loupe debug', 'Loupe debug WORKERS=2', 'Loupe debug cluster']) {
      const ours = find(rows, server, path);
      if (ours === undefined) continue;
      const against = VARIANTS_OF_DEBUG[server] ?? ([['Fastify', 'Fastify'], ['raw uWS', 'raw uWS'], ['uWS + bare machine', 'bare machine'], [`${server} (base)`, 'before (base)']] as const);
      for (const [other, label] of against) {
        const theirs = find(rows, other, path);
        if (theirs === undefined) continue;
        out.push({
          label: `${server} / ${label}, ${path}`,
          value: ours.requestsPerSecond / theirs.requestsPerSecond,
          cpuValue: theirs.cpuUsPerRequest / ours.cpuUsPerRequest,
          target: TARGETS.find((t) => t.server === server && t.path === path && t.against === other)?.target ?? null,
        });
      }
    }
  }
  return out;
}

/** Prints the table, the ratios and the profile check. */
export function printReport(report: Report): void {
  console.log(`\n${report.machine}; ${report.tool}, ${report.connections} connections, median of ${report.rounds} × ${report.seconds} s\n`);
  console.log(`${'server'.padEnd(NAME_WIDTH)} path       req/s  µs CPU/req  Redis µs/req   p50 ms   p99 ms   peak RSS MiB  errors`);
  for (const row of report.rows) {
    console.log(
      `${row.server.padEnd(NAME_WIDTH)} ${row.path.padEnd(9)} ${row.requestsPerSecond.toFixed(0).padStart(7)}  ${row.cpuUsPerRequest.toFixed(1).padStart(10)}  ${(Number.isNaN(row.redisUsPerRequest) ? '' : row.redisUsPerRequest.toFixed(1)).padStart(12)}  ${row.p50Ms.toFixed(2).padStart(7)}  ${row.p99Ms
        .toFixed(2)
        .padStart(7)}  ${row.peakRssMiB.toFixed(0).padStart(12)}  ${String(row.errors).padStart(6)}`,
    );
  }
  console.log('');
  console.log(`${'ratio'.padEnd(52)} req/s   by CPU/req`);
  for (const { label, value, cpuValue, target } of ratios(report.rows)) {
    const verdict = target === null ? '' : value >= target ? `  (target ≥ ${target.toFixed(2)}: met)` : `  (target ≥ ${target.toFixed(2)}: NOT met)`;
    console.log(`${label.padEnd(52)} ${value.toFixed(2).padStart(5)}×  ${cpuValue.toFixed(2).padStart(5)}×${verdict}`);
  }
  if (report.profiles.length > 0) console.log('');
  for (const p of report.profiles) {
    console.log(
      `${p.server} profiles: ${p.stored} stored for at least ${p.expectedAtLeast} expected; ${p.dropped} dropped, ${p.notProfiled} not profiled → ${p.complete ? 'every completed request has its profile' : 'PROFILES MISSING'}`,
    );
  }
  if (report.soak !== null) {
    const s = report.soak;
    console.log(
      `Soak ${s.seconds} s: RSS (median of readings every 10 s) ${s.rssAfterOneMinuteMiB.toFixed(0)} MiB in the 2nd minute, ${s.rssAtEndMiB.toFixed(0)} MiB in the last (${(s.growth * 100).toFixed(1)} %; readings ${s.minMiB.toFixed(0)}–${s.maxMiB.toFixed(0)} MiB) → ${s.withinTenPercent ? 'within 10 %' : 'NOT within 10 %'}`,
    );
  }
}
