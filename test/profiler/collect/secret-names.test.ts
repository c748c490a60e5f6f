import test from 'ava';
import { REDACTED, RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';
import { SecretNames } from '../../../src/profiler/collect/secret-names';

const names = new SecretNames();

test('pw is a secret name part, as pwd: ?pw=, newPw, pw_hash', (t) => {
  for (const name of ['pw', 'PW', 'newPw', 'pw_hash', 'user[pw]']) t.true(names.test(name), name);
  for (const name of ['pwa', 'npwd2x']) t.false(names.test(name), name);
});

test('code is a secret name only as a whole: OAuth’s ?code=, not status_code, zip_code, error_code or errorCode', (t) => {
  for (const name of ['code', 'Code', 'CODE']) t.true(names.test(name), name);
  for (const name of ['status_code', 'zip_code', 'error_code', 'errorCode', 'codes', 'barcode', 'code_challenge_method']) t.false(names.test(name), name);
});

test('a callback URL keeps neither its OAuth code nor its pw, and keeps its other parameters', (t) => {
  const out = new RedactionPolicy().text('/callback?code=SECRETOAUTHCODE&state=VISIBLESTATE&pw=SECRETPW&status_code=200');
  t.is(out, `/callback?code=${REDACTED}&state=VISIBLESTATE&pw=${REDACTED}&status_code=200`);
});
