import test from 'ava';
import { httpCallShape } from '../../../src/profiler/app-io/http-call-shape';

test('ids in a path (numbers, UUIDs, hex, long tokens) make one endpoint; the query and fragment are left out', (t) => {
  const shape = 'GET http://api.test/item/{id}';
  for (const url of ['http://api.test/item/1', 'http://api.test/item/204?expand=1', 'http://api.test/item/3f2a9c0e-1b2c-4d5e-8f90-a1b2c3d4e5f6', 'http://api.test/item/deadbeef42', 'http://api.test/item/AbCdEfGhIjKlMnOpQrStUv#top']) {
    t.is(httpCallShape('GET', url), shape, url);
  }
  t.is(httpCallShape('GET', 'http://API.test/users/7/orders/9'), 'GET http://api.test/users/{id}/orders/{id}', 'the host in lower case, each id');
});

test('words stay: other endpoints, methods and hosts are other shapes', (t) => {
  t.is(httpCallShape('GET', 'http://api.test/items/search'), 'GET http://api.test/items/search');
  t.not(httpCallShape('GET', 'http://api.test/item/1'), httpCallShape('POST', 'http://api.test/item/1'));
  t.not(httpCallShape('GET', 'http://a.test/item/1'), httpCallShape('GET', 'http://b.test/item/1'));
  t.is(httpCallShape('GET', 'http://api.test/v2/cafe'), 'GET http://api.test/v2/cafe', 'a short word of hex letters is a word');
});
