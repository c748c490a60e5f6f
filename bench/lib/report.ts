/** One line of the results table: the median of the rounds. */
export interface Row {
  readonly server: string;
  readonly path: 'unrouted' | 'routed';
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly peakRssMiB: number;
  readonly errors: number;
}

export interface SoakResult {
  readonly seconds: number;
  readonly rssAfterOneMinuteMiB: number;
  readonly rssAtEndMiB: number;
  readonly growth: number;
  readonly withinTenPercent: boolean;
}

export interface Report {
  readonly date: string;
  readonly machine: string;
  readonly tool: string;
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
  readonly rows: readonly Row[];
  readonly profiles: {
    readonly expectedAtLeast: number;
    readonly stored: number;
    readonly dropped: number;
    readonly notProfiled: number;
    readonly complete: boolean;
  };
  readonly soak: SoakResult | null;
}

const find = (rows: readonly Row[], server: string, path: string): Row | undefined => rows.find((row) => row.server === server && row.path === path);

/** Ratios from the same run: Loupe against Fastify and against the raw uWS ceiling. */
export function ratios(rows: readonly Row[]): { label: string; value: number; target: number | null }[] {
  const out: { label: string; value: number; target: number | null }[] = [];
  for (const path of ['routed', 'unrouted'] as const) {
    const fastify = find(rows, 'Fastify', path)?.requestsPerSecond ?? NaN;
    const raw = find(rows, 'raw uWS', path)?.requestsPerSecond ?? NaN;
    const limit = find(rows, 'uWS + XState', path)?.requestsPerSecond ?? NaN;
    for (const server of ['Loupe prod', 'Loupe debug']) {
      const rps = find(rows, server, path)?.requestsPerSecond ?? NaN;
      const target = server === 'Loupe prod' && path === 'routed' ? 1.0 : server === 'Loupe debug' && path === 'unrouted' ? 0.5 : null;
      out.push({ label: `${server} / Fastify, ${path}`, value: rps / fastify, target });
      out.push({ label: `${server} / raw uWS, ${path}`, value: rps / raw, target: null });
      out.push({ label: `${server} / uWS + XState, ${path}`, value: rps / limit, target: null });
    }
  }
  return out;
}

/** Prints the table, the ratios and the profile check. */
export function printReport(report: Report): void {
  console.log(`\n${report.machine}; ${report.tool}, ${report.connections} connections, median of ${report.rounds} × ${report.seconds} s\n`);
  console.log('server         path       req/s     p50 ms   p99 ms   peak RSS MiB  errors');
  for (const row of report.rows) {
    console.log(
      `${row.server.padEnd(14)} ${row.path.padEnd(9)} ${row.requestsPerSecond.toFixed(0).padStart(7)}  ${row.p50Ms.toFixed(2).padStart(7)}  ${row.p99Ms
        .toFixed(2)
        .padStart(7)}  ${row.peakRssMiB.toFixed(0).padStart(12)}  ${String(row.errors).padStart(6)}`,
    );
  }
  console.log('');
  for (const { label, value, target } of ratios(report.rows)) {
    const verdict = target === null ? '' : value >= target ? `  (target ≥ ${target.toFixed(1)}: met)` : `  (target ≥ ${target.toFixed(1)}: NOT met)`;
    console.log(`${label.padEnd(40)} ${value.toFixed(2)}×${verdict}`);
  }
  const p = report.profiles;
  console.log(
    `\nLoupe debug profiles: ${p.stored} stored for at least ${p.expectedAtLeast} expected; ${p.dropped} dropped, ${p.notProfiled} not profiled → ${p.complete ? 'every completed request has its profile' : 'PROFILES MISSING'}`,
  );
  if (report.soak !== null) {
    const s = report.soak;
    console.log(
      `Soak ${s.seconds} s: RSS ${s.rssAfterOneMinuteMiB.toFixed(0)} MiB after 1 min, ${s.rssAtEndMiB.toFixed(0)} MiB at the end (${(s.growth * 100).toFixed(1)} %) → ${s.withinTenPercent ? 'within 10 %' : 'NOT within 10 %'}`,
    );
  }
}
