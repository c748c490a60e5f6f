import test from 'ava';
import { redisArgs } from '../../../src/profiler/app-io/capture-redis';

test('EVAL and its kin keep the script, sha or function, the key count and the keys; their arguments are ?', (t) => {
  t.deepEqual(redisArgs('EVAL', ['return ARGV[1]', '2', 'k1', 'k2', 'SECRETARG1', 'SECRETARG2']), ['return ARGV[1]', '2', 'k1', 'k2', '?', '?']);
  t.deepEqual(redisArgs('EVALSHA', ['e0e1f9fabfc9d4800c877a703b823ac0578ff831', 0, 'SECRETSHAARG']), ['e0e1f9fabfc9d4800c877a703b823ac0578ff831', '0', '?']);
  t.deepEqual(redisArgs('EVAL_RO', ['return 1', '1', 'k', 'SECRETRO']), ['return 1', '1', 'k', '?']);
  t.deepEqual(redisArgs('EVALSHA_RO', ['abc', '0', 'SECRETSHARO']), ['abc', '0', '?']);
  t.deepEqual(redisArgs('FCALL', ['myfn', '1', 'k', 'SECRETFCALL']), ['myfn', '1', 'k', '?']);
  t.deepEqual(redisArgs('FCALL_RO', ['myfn', '0', 'SECRETFCALLRO']), ['myfn', '0', '?']);
});

test('a script whose key count is not a number keeps only its first two arguments', (t) => {
  t.deepEqual(redisArgs('EVAL', ['return 1', 'x', 'SECRETODD']), ['return 1', 'x', '?']);
});

test('GETSET and PSETEX keep the key (and milliseconds) and show ? for the value', (t) => {
  t.deepEqual(redisArgs('GETSET', ['k', 'SECRETGETSET']), ['k', '?']);
  t.deepEqual(redisArgs('PSETEX', ['k', '1000', 'SECRETPSETEX']), ['k', '1000', '?']);
});

test('other commands keep what the client’s sanitizer let through', (t) => {
  t.deepEqual(redisArgs('GET', ['k']), ['k']);
  t.deepEqual(redisArgs('SET', ['k', '?']), ['k', '?']);
});
