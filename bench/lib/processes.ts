import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

/** A TCP port nothing listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** A server under test, in its own process. */
export interface BenchServer {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
}

/** Starts `node args…` with `env` and waits until it answers HTTP on `port`. */
export async function startServer(name: string, port: number, args: readonly string[], env: Readonly<Record<string, string>>): Promise<BenchServer> {
  const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output}`);
    const up = await new Promise<boolean>((resolve) => {
      http.get({ host: '127.0.0.1', port, path: '/' }, (res) => (res.resume(), resolve(true))).on('error', () => resolve(false));
    });
    // Answered by this child, not by something left on the port: it must still be running.
    if (up && child.exitCode === null) return { name, port, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not answer on port ${port}:\n${output}`);
}

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** `pid` and every process below it (a supervisor's workers), from the parent ids in /proc. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    if (Number.isInteger(parent)) parents.set(Number(entry), parent);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** Resident memory of a process and its children, in MiB: current (VmRSS) and peak (VmHWM), from /proc. */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  if (pid === undefined) return { rss: NaN, peak: NaN };
  let rss = 0;
  let peak = 0;
  for (const member of processTree(pid)) {
    try {
      const status = readFileSync(`/proc/${member}/status`, 'utf8');
      const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      rss += kib('VmRSS') / 1024;
      peak += kib('VmHWM') / 1024;
    } catch {
      // Gone since the tree was read.
    }
  }
  return rss === 0 ? { rss: NaN, peak: NaN } : { rss, peak };
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/**
 * CPU time a process and its children have used so far (user + system), in microseconds, from
 * /proc/<pid>/stat: a supervisor's workers count, and each row stays the cost of a request.
 */
export function cpuMicrosOf(pid: number | undefined): number {
  if (pid === undefined || statFields(pid) === null) return NaN;
  let ticks = 0;
  for (const member of processTree(pid)) {
    const fields = statFields(member);
    // utime is the 12th field after the command name, stime the 13th.
    if (fields !== null) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / TICKS_PER_SECOND) * 1e6;
}

/** Stops a server and waits for it to exit. */
export async function stopServer(server: BenchServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.on('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** GETs a JSON document from a server. */
export function getJson(port: number, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { Accept: 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body));
          } catch (error) {
            reject(new Error(`${path} answered ${res.statusCode ?? 0} with no JSON: ${body.slice(0, 200)} (${String(error)})`));
          }
        });
      })
      .on('error', reject);
  });
}
