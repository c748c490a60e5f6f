import { z } from 'zod';

/** The inputs that narrow the stored profiles a tool reads to a time window and a route. */
export const WINDOW_INPUT = {
  since: z.string().optional().describe('Only requests of the last 30s, 10m, 2h, 1d…'),
  route: z.string().optional().describe('Only requests of this route, by its name'),
};
