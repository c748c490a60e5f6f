import test from 'ava';
import { HeaderBag } from '../../src/http/header-bag';

test('get, has and delete ignore the case of the name', (t) => {
  const headers = new HeaderBag({ 'Content-Type': 'text/plain' });
  t.is(headers.get('content-type'), 'text/plain');
  t.is(headers.get('CONTENT-TYPE'), 'text/plain');
  t.true(headers.has('content-TYPE'));
  t.false(headers.has('Content-Length'));
  t.is(headers.get('Content-Length'), undefined);
  headers.delete('CONTENT-type');
  t.false(headers.has('Content-Type'));
  t.is(headers.get('Content-Type'), undefined);
  t.deepEqual(headers.getAll('Content-Type'), []);
});

test('set replaces every value and the spelling of the name', (t) => {
  const headers = new HeaderBag().append('x-trace', 'a').append('X-Trace', 'b');
  headers.set('X-TRACE', 'c');
  t.is(headers.get('x-trace'), 'c');
  t.deepEqual(headers.getAll('x-trace'), ['c']);
  t.deepEqual([...headers.lines()], [['X-TRACE', 'c']]);
});

test('append adds a value after the others; on a missing name it sets it', (t) => {
  const headers = new HeaderBag();
  t.is(headers.append('Set-Cookie', 'a=1'), headers);
  headers.append('set-cookie', 'b=2').append('SET-COOKIE', 'c=3');
  t.deepEqual(headers.getAll('Set-Cookie'), ['a=1', 'b=2', 'c=3']);
  // get answers the first value only.
  t.is(headers.get('set-cookie'), 'a=1');
});

test('lines() yields one pair per value, in the order the headers were added, with their first spelling', (t) => {
  const headers = new HeaderBag({ 'Content-Type': 'text/html' });
  headers.append('Set-Cookie', 'a=1');
  headers.set('Cache-Control', 'no-cache');
  headers.append('set-cookie', 'b=2');
  t.deepEqual(
    [...headers.lines()],
    [
      ['Content-Type', 'text/html'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['Cache-Control', 'no-cache'],
    ],
  );
  headers.delete('set-cookie');
  t.deepEqual(
    [...headers.lines()],
    [
      ['Content-Type', 'text/html'],
      ['Cache-Control', 'no-cache'],
    ],
  );
});

test('forEachLine calls back once per value, in the order of lines(), with the name lower-cased too', (t) => {
  const headers = new HeaderBag({ 'Content-Type': 'text/html' });
  headers.append('Set-Cookie', 'a=1');
  headers.set('Cache-Control', 'no-cache');
  headers.append('set-cookie', 'b=2');
  const seen: [string, string, string][] = [];
  headers.forEachLine((name, value, lowerCaseName) => seen.push([name, value, lowerCaseName]));
  t.deepEqual(seen, [
    ['Content-Type', 'text/html', 'content-type'],
    ['Set-Cookie', 'a=1', 'set-cookie'],
    ['Set-Cookie', 'b=2', 'set-cookie'],
    ['Cache-Control', 'no-cache', 'cache-control'],
  ]);
  t.deepEqual(
    seen.map(([name, value]) => [name, value]),
    [...headers.lines()],
  );
});

test('toJSON gives a single value as a string and several as an array', (t) => {
  const headers = new HeaderBag({ 'Content-Type': 'application/json' });
  headers.append('Set-Cookie', 'a=1').append('Set-Cookie', 'b=2');
  const json = headers.toJSON();
  t.deepEqual(json, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] });
  t.is(JSON.stringify(headers), JSON.stringify(json));
});

test('toJSON is a copy: changing it leaves the bag as it was', (t) => {
  const headers = new HeaderBag();
  headers.append('Vary', 'Accept').append('Vary', 'Cookie');
  const json = headers.toJSON();
  const vary = json['Vary'];
  if (!Array.isArray(vary)) return t.fail('expected an array for a repeated header');
  vary.push('Accept-Language');
  json['X-Added'] = 'yes';
  t.deepEqual(headers.getAll('vary'), ['Accept', 'Cookie']);
  t.false(headers.has('X-Added'));
});

test('an empty bag has no lines and an empty JSON form', (t) => {
  const headers = new HeaderBag();
  t.deepEqual([...headers.lines()], []);
  t.deepEqual(headers.toJSON(), {});
});
