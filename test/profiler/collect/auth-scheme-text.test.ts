import test from 'ava';
import { REDACTED, RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';

const policy = new RedactionPolicy();

test('a credential after an auth scheme is replaced wherever a text quotes it', (t) => {
  t.is(policy.text('{"header":"Bearer SECRETJSON123.abc"}'), `{"header":"Bearer ${REDACTED}"}`);
  t.is(policy.text('upstream said: Authorization: Bearer eyJhbGciOi.SECRETJWT.sig was refused'), `upstream said: Authorization: Bearer ${REDACTED} was refused`);
  t.is(policy.text('sent apikey SECRETAPIKEY42 twice'), `sent apikey ${REDACTED} twice`);
  t.is(policy.text('ApiKey SECRET-MIXED-KEY'), `ApiKey ${REDACTED}`);
  t.is(policy.text('Basic dXNlcjpwYXNz'), `Basic ${REDACTED}`);
  t.is(policy.text('Basic dXNlcjpwYXNzd29yZA=='), `Basic ${REDACTED}`);
  t.is(policy.text('Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b'), `Token ${REDACTED}`);
});

test('prose after a scheme’s name is kept: basic usage, Basic authentication, token expired, a challenge’s realm', (t) => {
  for (const text of ['basic usage of the API', 'Basic authentication failed', 'the token expired', 'WWW-Authenticate: Bearer realm="api"', 'Bearer error="invalid_token"']) {
    t.is(policy.text(text), text);
  }
});
