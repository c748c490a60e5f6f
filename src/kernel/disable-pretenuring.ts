import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for the process (`--no-allocation-site-pretenuring`).
 *
 * Why: a request's objects die young, but while an application loads and warms up, literals of
 * the request path (XState's snapshots and action arguments among them) survive scavenges, and
 * V8 then decides to allocate those literals in the old generation from that point on. Each such
 * object, dead as soon as its request is over, still holds pointers into the young generation,
 * and the scavenger treats old-to-new pointers as roots: the whole request that object points to
 * survives, is promoted, and points on to the next one, until a full mark-compact. Measured with
 * `--trace-gc-nvp` on the kernel alone in a process that has loaded ioredis: about 1.5 MB survived
 * each scavenge instead of 8 kB, and a routed prod request cost three times the CPU. Without
 * pretenuring every object starts young, so only what is live at a scavenge survives it.
 *
 * Process-wide and harmless to correctness (pretenuring is a heuristic; V8 still promotes what
 * lives long); Node keeps V8's flags writable after start, so this applies from the next
 * allocation on. Called when a kernel is made, before its first request.
 */
export function disableAllocationSitePretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
