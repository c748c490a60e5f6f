import { ServiceUnavailableHttpError, type Controller } from '../../src';
import { type UpstreamAddress } from '../io/demo-io';

/** Longest wait for the upstream; a fetch without a deadline would hold the request forever. */
const UPSTREAM_TIMEOUT_MS = 5_000;

/**
 * `GET /io/upstream?n=N`: calls an upstream JSON API with `fetch` and answers what it said. The
 * upstream is the demo's own `/api/quote` (a sandbox has no other network): the profiler shows
 * the call, its status and headers in the HTTP client panel, and the quote's own profile is a
 * request of its own.
 */
export function createUpstreamController(upstream: UpstreamAddress): Controller {
  return {
    name: 'upstream.quote',
    handle: async ({ request }) => {
      if (upstream.url === null) throw new ServiceUnavailableHttpError('The demo calls its upstream on its own address, known once it listens.');
      const n = request.queryParams.get('n');
      const url = `${upstream.url}/api/quote${n === null ? '' : `?n=${encodeURIComponent(n)}`}`;
      let response: globalThis.Response;
      try {
        response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
      } catch (error) {
        throw new ServiceUnavailableHttpError(`The upstream ${url} did not answer.`, { cause: error });
      }
      const body: unknown = await response.json();
      return { upstream: url, status: response.status, body };
    },
  };
}
