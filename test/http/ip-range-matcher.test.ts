import test from 'ava';
import { LoupeError } from '../../src/errors/loupe-error';
import { createIpRangeMatcher, parseIpAddress } from '../../src/http/ip-range-matcher';

test('the default ranges allow loopback in every form uWS may report it', (t) => {
  const isAllowed = createIpRangeMatcher(['127.0.0.0/8', '::1/128']);
  for (const address of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '::ffff:127.0.0.1', '::FFFF:7f00:1', '0000:0000:0000:0000:0000:ffff:7f00:0001', '[::1]']) {
    t.true(isAllowed(address), address);
  }
  for (const address of ['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', 'fe80::1', '', 'localhost', '127.0.0.1.5', '1.2.3']) {
    t.false(isAllowed(address), address);
  }
});

test('IPv4 prefixes that do not end on a byte boundary', (t) => {
  const isAllowed = createIpRangeMatcher(['192.168.4.0/22', '10.1.2.3']);
  t.true(isAllowed('192.168.4.1'));
  t.true(isAllowed('192.168.7.255'));
  t.false(isAllowed('192.168.8.0'));
  t.false(isAllowed('192.168.3.255'));
  t.true(isAllowed('10.1.2.3'));
  t.false(isAllowed('10.1.2.4'));
});

test('IPv6 ranges, compressed or not, and /0 matching its whole family only', (t) => {
  const isAllowed = createIpRangeMatcher(['2001:db8::/32', 'fd00::/8']);
  t.true(isAllowed('2001:db8::1'));
  t.true(isAllowed('2001:0db8:ffff:0:0:0:0:1'));
  t.false(isAllowed('2001:db9::1'));
  t.true(isAllowed('fdab::1'));
  t.false(isAllowed('fe00::1'));
  const allV4 = createIpRangeMatcher(['0.0.0.0/0']);
  t.true(allV4('8.8.8.8'));
  t.true(allV4('::ffff:8.8.8.8'));
  t.false(allV4('2001:db8::1'));
  t.true(createIpRangeMatcher(['::/0'])('2001:db8::1'));
});

test('an IPv4-mapped range is the IPv4 range it maps', (t) => {
  const isAllowed = createIpRangeMatcher(['::ffff:10.0.0.0/104']);
  t.true(isAllowed('10.20.30.40'));
  t.false(isAllowed('11.0.0.1'));
});

test('an empty list allows nobody', (t) => {
  t.false(createIpRangeMatcher([])('127.0.0.1'));
});

test('an invalid range is refused when the matcher is built', (t) => {
  for (const range of ['127.0.0.0/33', '::1/129', '300.0.0.1', 'abc', '1::2::3', '10.0.0.0/8/8', '10.0.0.0/x', '']) {
    const error = t.throws(() => createIpRangeMatcher([range]), { instanceOf: LoupeError }, range);
    t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
  }
});

test('parseIpAddress gives 4 bytes for IPv4 and IPv4-mapped IPv6, 16 for IPv6', (t) => {
  t.deepEqual(parseIpAddress('::ffff:127.0.0.1'), [127, 0, 0, 1]);
  t.deepEqual(parseIpAddress('1.2.3.4'), [1, 2, 3, 4]);
  t.deepEqual(parseIpAddress('::1'), [...new Array<number>(15).fill(0), 1]);
  t.deepEqual(parseIpAddress('fe80::1%eth0')?.slice(0, 2), [0xfe, 0x80]);
  t.is(parseIpAddress('1:2:3:4:5:6:7:8:9'), null);
  t.is(parseIpAddress('12345::'), null);
});
