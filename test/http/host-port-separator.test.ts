import test from 'ava';
import { hostPortSeparator } from '../../src/http/host-port-separator';

test('the port separator is the colon before a port of digits up to 65535, and -1 when what follows the host is not a port', (t) => {
  const cases: ReadonlyArray<readonly [string, number]> = [
    ['example.com', 11],
    ['example.com:8080', 11],
    ['example.com:', 11],
    ['example.com:65535', 11],
    ['[::1]', 5],
    ['[::1]:80', 5],
    ['::1', 3],
    ['example.com:65536', -1],
    ['127.0.0.1:8400.evil.test', -1],
    ['a:1:2', -1],
    ['[::1]x', -1],
    ['[::1]:-1', -1],
  ];
  for (const [host, separator] of cases) t.is(hostPortSeparator(host), separator, host);
});
