import { getHeapStatistics } from 'node:v8';
import { type ProfileCollector } from '../../collector';
import { redactsItself } from '../redacts-itself';

export const MEMORY_COLLECTOR = 'memory';

export interface MemoryCollectorData {
  /** Bytes of the V8 heap in use when the request ended: the whole process's, not this request's alone. */
  readonly heapUsed: number;
  /** Bytes of the V8 heap reserved at that moment. */
  readonly heapTotal: number;
}

/**
 * Memory when the request ended (Symfony's memory collector). Node has no per-request memory, so
 * this is the process's heap; read from V8's heap statistics, which cost well under a
 * microsecond, where `process.memoryUsage()` reads /proc and costs some fifteen.
 */
export const memoryCollector: ProfileCollector<MemoryCollectorData> = redactsItself({
  name: MEMORY_COLLECTOR,
  collect: () => {
    const heap = getHeapStatistics();
    return { heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size };
  },
});
