import { execFile, spawnSync } from 'node:child_process';

/** One measurement of one server on one path. */
export interface LoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly seconds: number;
  readonly connections: number;
}

/** The load tool in use: wrk when installed, else autocannon from node_modules. */
export function loadTool(): 'wrk' | 'autocannon' {
  return spawnSync('wrk', ['--version']).error === undefined ? 'wrk' : 'autocannon';
}

function toMs(value: string, unit: string): number {
  const number = Number(value);
  if (unit === 'us') return number / 1000;
  if (unit === 's') return number * 1000;
  if (unit === 'm') return number * 60_000;
  return number;
}

function run(command: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Parses wrk's `--latency` output. */
export function parseWrk(output: string): LoadResult {
  const percentile = (p: string): number => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(output);
    return match?.[1] !== undefined && match[2] !== undefined ? toMs(match[1], match[2]) : NaN;
  };
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const errors = socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0);
  void non2xx; // 404s are the point of the unrouted path: not errors.
  return { requests, requestsPerSecond: rps, p50Ms: percentile('50'), p99Ms: percentile('99'), errors };
}

/** Loads `url` for `seconds` on loopback and returns throughput and latency. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(options.url)) throw new Error('Benchmarks only target loopback (127.0.0.1).');
  if (loadTool() === 'wrk') {
    const output = await run('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', options.url], (options.seconds + 30) * 1000);
    return parseWrk(output);
  }
  const output = await run(
    process.execPath,
    [require.resolve('autocannon/autocannon.js'), '-j', '-c', String(options.connections), '-d', String(options.seconds), options.url],
    (options.seconds + 30) * 1000,
  );
  const json = JSON.parse(output) as { requests: { total: number; average: number }; latency: { p50: number; p99: number }; errors: number };
  return { requests: json.requests.total, requestsPerSecond: json.requests.average, p50Ms: json.latency.p50, p99Ms: json.latency.p99, errors: json.errors };
}
