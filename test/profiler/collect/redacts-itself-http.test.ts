import test from 'ava';
import { defineListener } from '../../../src';
import { flattenError } from '../../../src/error-handler/flatten-error';
import { parseStack } from '../../../src/error-handler/parse-stack';
import { NotFoundHttpError } from '../../../src/errors/http-error';
import { type CollectorEntry } from '../../../src/profiler/profile';
import { EXCEPTION_COLLECTOR } from '../../../src/profiler/collect/collectors/exception-collector';
import { LOGS_COLLECTOR } from '../../../src/profiler/collect/collectors/logs-collector';
import { MEMORY_COLLECTOR } from '../../../src/profiler/collect/collectors/memory-collector';
import { REQUEST_COLLECTOR } from '../../../src/profiler/collect/collectors/request-collector';
import { ROUTER_COLLECTOR } from '../../../src/profiler/collect/collectors/router-collector';
import { TIMELINE_COLLECTOR } from '../../../src/profiler/collect/collectors/timeline-collector';
import { RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';
import { httpRequest } from '../../helpers/http-client';
import { startTestServer, type TestServer } from '../../helpers/test-server';

let server: TestServer;

/** An application span and a log record that repeat what the request asked for, as a careless application might. */
const echoingSpan = defineListener('EchoingSpan', {
  'kernel.request': [
    200,
    (event) => {
      const { request } = event;
      event.stopwatch.span(`lookup ${request.uri}`, () => undefined);
      event.log('info', `looking up ${request.uri}`, { uri: request.uri, referer: request.header('referer') });
    },
  ],
});

test.before(async () => {
  server = await startTestServer({}, { listeners: [echoingSpan] });
});

test.after.always(async () => {
  await server?.close();
});

/** The stored entries of the collectors that redact every string themselves (no last pass over them). */
const REDACTING_ITSELF = [REQUEST_COLLECTOR, EXCEPTION_COLLECTOR, LOGS_COLLECTOR, ROUTER_COLLECTOR, TIMELINE_COLLECTOR, MEMORY_COLLECTOR];

async function storedProfile(token: string): Promise<{ readonly collectors: Readonly<Record<string, CollectorEntry>> }> {
  const found = await server.profiler?.storage.read(token);
  if (found?.kind !== 'found') throw new Error(`no profile stored under ${token}`);
  return JSON.parse(found.json) as { collectors: Readonly<Record<string, CollectorEntry>> };
}

test('the request, exception, logs, router, timeline and memory entries hold no secret of the request: the last pass over them would change nothing', async (t) => {
  const res = await httpRequest(server.port, {
    path: '/missing/password=hunter2/x?token=s3cr3t&api_key=k3y',
    headers: { accept: 'text/html', authorization: 'Bearer b34r3r', referer: 'http://user:pa55w0rd@example.com/?session_id=s355' },
  });
  t.is(res.status, 404);
  await server.profiler?.writer.whenIdle();
  // The main request's profile and its error sub-request's.
  const tokens = [String(res.headers['x-debug-token']), String(res.headers['x-previous-debug-token'])];
  const profiles = await Promise.all(tokens.map(storedProfile));
  const policy = new RedactionPolicy();
  for (const profile of profiles) {
    for (const name of REDACTING_ITSELF) {
      const entry = profile.collectors[name];
      t.truthy(entry, `the profile has a ${name} entry`);
      const json = JSON.stringify(entry);
      for (const secret of ['hunter2', 's3cr3t', 'k3y', 'b34r3r', 'pa55w0rd', 's355']) t.false(json.includes(secret), `${name} keeps no "${secret}"`);
      // The entry's JSON parsed again: the same object back means the last pass finds nothing to redact.
      t.is(policy.entry(entry), entry, `${name}: redacting it again changes nothing`);
    }
  }
});

test('an error is flattened to the fields the exception collector redacts, and its frames to those it redacts: a new field must be redacted there too', (t) => {
  const flat = flattenError(new NotFoundHttpError('No route found', { cause: new Error('inner') }));
  const fields = ['class', 'message', 'code', 'statusCode', 'statusText', 'headers', 'trace'];
  t.deepEqual(Object.keys(flat).sort(), [...fields, 'previous'].sort());
  for (const previous of flat.previous) t.deepEqual(Object.keys(previous).sort(), [...fields].sort());
  const frameFields = new Set(['function', 'file', 'line', 'column', 'hidden']);
  for (const frame of [...flat.trace, ...parseStack(new Error('x').stack ?? '')]) for (const key of Object.keys(frame)) t.true(frameFields.has(key), `frame field ${key}`);
});
