import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type ProfilerPages } from '../../core/profiler-pages';
import { PROFILER_PREFIX, TOOLBAR_PREFIX } from '../../profiler-paths';
import { requestStartOf } from '../request-start-of';

/**
 * Routes the profiler's pages (`/_profiler`, `/_profiler/*`, `/_wdt/*`, GET and HEAD) to `pages`,
 * under the profiler's access rule; the adapter leaves them unprofiled.
 */
export function mountProfilerPages(app: FastifyInstance, pages: ProfilerPages): void {
  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const page = await pages.serve(requestStartOf(request.raw));
    const headers = new Map<string, string[]>();
    for (const [name, value] of page.headers) headers.set(name, [...(headers.get(name) ?? []), value]);
    for (const [name, values] of headers) reply.header(name, values.length === 1 ? (values[0] ?? '') : values);
    return reply.code(page.status).send(page.body);
  };
  for (const url of [PROFILER_PREFIX, `${PROFILER_PREFIX}/*`, `${TOOLBAR_PREFIX}/*`]) app.route({ method: ['GET', 'HEAD'], url, handler: serve });
}
