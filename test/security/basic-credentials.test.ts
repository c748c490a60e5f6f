import test from 'ava';
import { isBasicAuthorization, parseBasicCredentials } from '../../src/security/basic-credentials';

const basic = (text: string): string => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

test('reads identifier and password, splitting at the first colon', (t) => {
  t.deepEqual(parseBasicCredentials(basic('admin:loupe')), { identifier: 'admin', password: 'loupe' });
  t.deepEqual(parseBasicCredentials(basic('admin:a:b:')), { identifier: 'admin', password: 'a:b:' });
  t.deepEqual(parseBasicCredentials(basic('admin:')), { identifier: 'admin', password: '' });
  t.deepEqual(parseBasicCredentials(basic('zoë:pässword')), { identifier: 'zoë', password: 'pässword' });
});

test('the scheme is case-insensitive', (t) => {
  t.true(isBasicAuthorization('basic abc'));
  t.true(isBasicAuthorization('BASIC abc'));
  t.false(isBasicAuthorization('Bearer abc'));
  t.false(isBasicAuthorization('Basicabc'));
  t.false(isBasicAuthorization(undefined));
  t.deepEqual(parseBasicCredentials(basic('a:b').replace('Basic', 'bAsIc')), { identifier: 'a', password: 'b' });
});

test('malformed values give null', (t) => {
  for (const header of ['Basic', 'Basic ', 'Basic !!!', basic('nocolon'), basic(':password'), 'Basic YWRtaW46bG91cGU= extra']) {
    t.is(parseBasicCredentials(header), null, header);
  }
});
