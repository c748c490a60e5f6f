import test from 'ava';
import { NotFoundHttpError } from '../../src/errors/http-error';
import { describeValue } from '../../src/kernel/describe-value';

test('null and undefined are named as such', (t) => {
  t.is(describeValue(null), 'null');
  t.is(describeValue(undefined), 'undefined');
});

test('a string is quoted, and cut after 40 characters', (t) => {
  t.is(describeValue(''), 'a string ("")');
  t.is(describeValue('hello'), 'a string ("hello")');
  const forty = 'x'.repeat(40);
  t.is(describeValue(forty), `a string ("${forty}")`);
  t.is(describeValue(`${forty}yz`), `a string ("${forty}…")`);
});

test('an array gives its length', (t) => {
  t.is(describeValue([]), 'an array (0 items)');
  t.is(describeValue([1, 'two', null]), 'an array (3 items)');
});

test('an object gives the name of its class', (t) => {
  class Invoice {}
  t.is(describeValue({}), 'an object of type Object');
  t.is(describeValue(new Invoice()), 'an object of type Invoice');
  t.is(describeValue(new Map()), 'an object of type Map');
  t.is(describeValue(Object.create(null)), 'an object of type Object');
});

test('an error gives its name and message', (t) => {
  t.is(describeValue(new TypeError('bad input')), 'TypeError: bad input');
  t.is(describeValue(new NotFoundHttpError('No route.')), 'NotFoundHttpError: No route.');
});

test('other values give their type and value', (t) => {
  t.is(describeValue(42), 'a number (42)');
  t.is(describeValue(Number.NaN), 'a number (NaN)');
  t.is(describeValue(true), 'a boolean (true)');
  t.is(describeValue(10n), 'a bigint (10)');
});
