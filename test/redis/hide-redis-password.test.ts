import test from 'ava';
import { hideRedisPassword } from '../../src/redis/hide-redis-password';

test('the password of any URL is replaced, the user name and the rest kept', (t) => {
  t.is(hideRedisPassword('redis://:pw@127.0.0.1:6379'), 'redis://:***@127.0.0.1:6379');
  t.is(hideRedisPassword('rediss://user:p:w@host:6380/2'), 'rediss://user:***@host:6380/2');
  t.is(hideRedisPassword('redis+cluster://user:p@w@a:1,b:2'), 'redis+cluster://user:***@a:1,b:2');
  t.is(hideRedisPassword('http://:pw@x'), 'http://:***@x');
  t.is(hideRedisPassword(':pw@host:6379'), ':***@host:6379');
});

test('a URL without a password is kept as it is', (t) => {
  for (const url of ['redis://127.0.0.1:6379', 'redis://user@host:6379', 'redis+cluster://a:1,b:2', 'localhost:6379']) t.is(hideRedisPassword(url), url);
});
