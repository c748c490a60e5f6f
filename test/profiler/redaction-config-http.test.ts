import test from 'ava';
import { profileRequests } from './ui/cli/profile-requests';
import { httpRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { REDACTED } from '../../src/profiler/collect/redaction-policy';

let server: TestServer;

test.before(async () => {
  server = await startTestServer({ PROFILER_REDACT: 'ssn,*iban*', PROFILER_COOKIE_ALLOWLIST: 'theme,LOUPESESSID,csrf_token' });
});

test.after.always(async () => {
  await server?.close();
});

interface StoredRequest {
  readonly query: Record<string, string>;
  readonly cookies: Record<string, string>;
  readonly headers: Record<string, string>;
}

test('PROFILER_REDACT names and PROFILER_COOKIE_ALLOWLIST cookies reach the stored profile', async (t) => {
  const [token = ''] = await profileRequests(server, [
    {
      path: '/hello/anna?ssn=123-45&payee_iban=FR76&q=kept',
      headers: { Cookie: 'theme=dark; LOUPESESSID=abc; csrf_token=c1; lang=fr', 'X-Customer-Ssn': '123-45' },
    },
  ]);
  const res = await httpRequest(server.port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
  const request = (JSON.parse(res.body) as { collectors: { request: StoredRequest } }).collectors.request;
  t.deepEqual(request.query, { ssn: REDACTED, payee_iban: REDACTED, q: 'kept' });
  t.deepEqual(request.cookies, { theme: 'dark', LOUPESESSID: REDACTED, csrf_token: REDACTED, lang: REDACTED }, 'allowed, but the session cookie and a secret name stay hidden');
  t.is(request.headers['x-customer-ssn'], REDACTED);
});
