import { LoupeResponse, type Controller } from '../../src';

const MAX_DELAY_MS = 5_000;

/**
 * `GET /slow?ms=N`: answers after N milliseconds (at most 5 s), to watch requests in flight; the
 * wait is a stopwatch span of its own in the profiler's Performance panel.
 */
export const slowController: Controller = {
  name: 'slow.slow',
  handle: async ({ request, stopwatch }) => {
    const requested = Number(request.queryParams.get('ms') ?? '100');
    const delay = Number.isFinite(requested) ? Math.min(Math.max(requested, 0), MAX_DELAY_MS) : 100;
    await stopwatch.span('wait', () => new Promise((resolve) => setTimeout(resolve, delay)));
    return new LoupeResponse(`Answered after ${delay} ms.`, 200, { 'Content-Type': 'text/plain' });
  },
};
