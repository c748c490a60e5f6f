import test from 'ava';
import { splitRequestLineWarning } from '../../src/server/runtime-warning';
import { node24OnNewGlibc } from '../helpers/node-24';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server';

const PROD = { APP_ENV: 'prod', APP_SECRET: 'a-secret-for-this-test', LOG_FORMAT: 'json' };

function firstLine(server: SpawnedServer): string {
  const [line = ''] = server.output().split('\n');
  return String((JSON.parse(line) as { msg?: unknown }).msg);
}

test('the warning names the split request line, the upstream issue and what to run, for Node 20\'s ABI and older only', (t) => {
  const warning = splitRequestLineWarning('115', '20.19.0') ?? '';
  t.regex(warning, /^Warning: on Node 20\.19\.0 .*505.*two TCP reads.*uNetworking\/uWebSockets#1776.*Node 22\.20\+ or 24\.12\+ on glibc 2\.38 or later.*proxy in front that forwards whole request heads\.$/);
  t.is(splitRequestLineWarning('127', '22.20.0'), null);
  t.is(splitRequestLineWarning('137', '24.12.0'), null);
});

test('a prod start on this runtime prints the warning as its first line when its uWS has the bug, and the listening line first when not', async (t) => {
  const server = await spawnServer(PROD);
  try {
    const expected = splitRequestLineWarning();
    if (expected === null) t.regex(firstLine(server), /^Loupe listening /);
    else t.is(firstLine(server), expected);
  } finally {
    await server.close();
  }
});

test('a prod start under Node 24 on glibc 2.41 prints no warning: its first line is the listening line', async (t) => {
  t.timeout(180_000);
  const server = await spawnServer(PROD, await node24OnNewGlibc());
  try {
    t.regex(firstLine(server), /^Loupe listening on http:\/\/127\.0\.0\.1:\d+ \(APP_ENV=prod, debug off; process tuned: [^()]+\)$/);
  } finally {
    await server.close();
  }
});

test('a dev start prints no warning, whatever the runtime', async (t) => {
  const server = await spawnServer({ LOG_FORMAT: 'json' });
  try {
    t.regex(firstLine(server), /^Loupe listening /);
  } finally {
    await server.close();
  }
});
