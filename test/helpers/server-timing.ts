import { type ExecutionContext } from 'ava';
import { httpRequest } from './http-client';

/** One metric of a Server-Timing header: its name and parameters (`dur` as a number). */
export interface ServerTimingMetric {
  readonly name: string;
  readonly dur?: number;
  readonly desc?: string;
  readonly params: Readonly<Record<string, string>>;
}

// RFC 9110 §5.6.2 token and §5.6.4 quoted-string, as the Server-Timing grammar uses them.
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const QUOTED = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\x09\\x20-\\x7e])*"';
const METRIC = new RegExp(`[ \\t]*(${TOKEN})`, 'y');
const PARAM = new RegExp(`[ \\t]*;[ \\t]*(${TOKEN})[ \\t]*=[ \\t]*(${TOKEN}|${QUOTED})`, 'y');
const SEPARATOR = /[ \t]*(,|$)/y;

/**
 * Parses a Server-Timing value strictly by the grammar of https://www.w3.org/TR/server-timing/
 * (`metric *( OWS ";" OWS param )`, metrics separated by commas); throws where it does not hold.
 */
export function parseServerTiming(value: string): ServerTimingMetric[] {
  const metrics: ServerTimingMetric[] = [];
  let at = 0;
  while (at < value.length) {
    METRIC.lastIndex = at;
    const name = METRIC.exec(value);
    if (name === null) throw new Error(`No metric name at ${at} in: ${value}`);
    at = METRIC.lastIndex;
    const params: Record<string, string> = {};
    for (let param = (PARAM.lastIndex = at, PARAM.exec(value)); param !== null; param = (PARAM.lastIndex = at, PARAM.exec(value))) {
      const raw = param[2] ?? '';
      params[(param[1] ?? '').toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
      at = PARAM.lastIndex;
    }
    SEPARATOR.lastIndex = at;
    if (SEPARATOR.exec(value) === null) throw new Error(`Unexpected text at ${at} in: ${value}`);
    at = SEPARATOR.lastIndex;
    const dur = params['dur'];
    if (dur !== undefined && !/^\d+(\.\d+)?$/.test(dur)) throw new Error(`dur is no number: ${dur}`);
    metrics.push({ name: name[1] ?? '', params, ...(dur === undefined ? {} : { dur: Number(dur) }), ...(params['desc'] === undefined ? {} : { desc: params['desc'] }) });
  }
  return metrics;
}

/**
 * What every adapter's Server-Timing holds whatever its framework: each metric of a profiled
 * response's `header` named `names` with a duration; at `/timed` of the server on `port` the
 * application's own `app;dur=1.5` first and Loupe's `total` last; with `nowhere` given, a 404 ends
 * with `total` too. Answers the response's metrics.
 */
export async function checkServerTiming(t: ExecutionContext, port: number, header: unknown, names: readonly string[], nowhere?: string): Promise<ServerTimingMetric[]> {
  const timing = parseServerTiming(String(header));
  t.deepEqual(timing.map((metric) => metric.name), [...names]);
  t.true(timing.every((metric) => typeof metric.dur === 'number' && metric.dur >= 0));
  if (nowhere !== undefined) {
    const missing = parseServerTiming(String((await httpRequest(port, { path: nowhere })).headers['server-timing']));
    t.is(missing.at(-1)?.name, 'total', 'a 404 has its Server-Timing too');
  }
  const timed = parseServerTiming(String((await httpRequest(port, { path: '/timed' })).headers['server-timing']));
  t.deepEqual(timed[0], { name: 'app', dur: 1.5, params: { dur: '1.5' } });
  t.is(timed.at(-1)?.name, 'total');
  return timing;
}
