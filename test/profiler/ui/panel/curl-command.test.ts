import { execFileSync } from 'node:child_process';
import test from 'ava';
import { type StoredHttpCall } from '../../../../src/profiler/collect/collectors/app-io-collectors';
import { curlCommand, shellQuote } from '../../../../src/profiler/ui/panel/curl-command';

function call(overrides: Partial<StoredHttpCall>): StoredHttpCall {
  return { start: 0, duration: 1, error: null, origin: null, client: 'fetch', method: 'GET', url: 'http://127.0.0.1/x', status: 200, requestHeaders: {}, responseHeaders: {}, requestSize: null, responseSize: null, ...overrides };
}

test('a word a shell would change is single-quoted, a quote in it closed, escaped and reopened', (t) => {
  t.is(shellQuote('http://host/path'), 'http://host/path');
  t.is(shellQuote('http://host/?a=1&b=2'), "'http://host/?a=1&b=2'");
  t.is(shellQuote(`it's $HOME \`id\``), `'it'\\''s $HOME \`id\`'`);
});

test('a shell reads each quoted word back exactly', (t) => {
  const words = [`it's "here"`, '$(id) `id` $HOME', 'a\nb', 'back\\slash', "''", '*?[x]'];
  const echoed = execFileSync('sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
  t.deepEqual(echoed.split('\0').slice(0, -1), words);
});

test('the command names the method unless GET, the request headers but those curl sets itself, and the URL', (t) => {
  t.is(curlCommand(call({ url: 'http://h/a?b=1' })), "curl 'http://h/a?b=1'");
  t.is(
    curlCommand(call({ method: 'POST', requestHeaders: { 'content-type': 'application/json', 'content-length': '12', host: 'h' } })),
    "curl -X POST -H 'content-type: application/json' http://127.0.0.1/x",
  );
});
