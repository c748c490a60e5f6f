import { getHeapStatistics } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { type ProfileCollector } from '../../collector';
import { redactsItself } from '../redacts-itself';

export const MEMORY_COLLECTOR = 'memory';

export interface MemoryCollectorData {
  /** Bytes of the V8 heap in use when the request ended: the whole process's, not this request's alone. */
  readonly heapUsed: number;
  /** Bytes of the V8 heap reserved at that moment. */
  readonly heapTotal: number;
}

/** How long, in milliseconds, one reading of the heap stands for the requests that end after it. */
const READING_LIFETIME_MS = 1;

/**
 * Memory when the request ended (Symfony's memory collector). Node has no per-request memory, so
 * this is the process's heap, read from V8's heap statistics, where `process.memoryUsage()` reads
 * /proc and costs some fifteen microseconds. A busy server ends dozens of requests a millisecond:
 * they share one reading, which is as true of each of them as the process's heap can be, and
 * is a fiftieth of a profiled request's CPU fewer.
 */
export function createMemoryCollector(): ProfileCollector<MemoryCollectorData> {
  let reading: MemoryCollectorData = { heapUsed: 0, heapTotal: 0 };
  let readAt = Number.NEGATIVE_INFINITY;
  return redactsItself({
    name: MEMORY_COLLECTOR,
    collect: () => {
      const now = performance.now();
      if (now - readAt >= READING_LIFETIME_MS) {
        const heap = getHeapStatistics();
        reading = { heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size };
        readAt = now;
      }
      return reading;
    },
  });
}
