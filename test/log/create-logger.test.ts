import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createLogger } from '../../src/log/create-logger';
import { type LogConfig } from '../../src/log/log-config';
import { TYPESCRIPT } from '../helpers/typescript-loader';

/** A stream that keeps what is written, seen as a terminal or not. */
function sink(isTTY: boolean): PassThrough & { isTTY: boolean; text(): string } {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; text(): string };
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.isTTY = isTTY;
  stream.text = () => Buffer.concat(chunks).toString('utf8');
  return stream;
}

function logged(config: LogConfig, isTTY: boolean): string {
  const out = sink(isTTY);
  const logger = createLogger(config, out);
  logger.info({ method: 'GET', path: '/', status: 200, durationMs: 1.5 }, 'GET / 200 1.5 ms');
  logger.debug('not at info');
  return out.text();
}

test('auto is JSON lines on a pipe, pretty on a terminal', (t) => {
  t.like(JSON.parse(logged({ level: 'info', format: 'auto' }, false)), { level: 30, msg: 'GET / 200 1.5 ms', status: 200 });
  t.regex(logged({ level: 'info', format: 'auto' }, true), /INFO.*GET \/ 200 1\.5 ms/);
});

test('json and pretty are what they say, whatever the destination', (t) => {
  t.like(JSON.parse(logged({ level: 'info', format: 'json' }, true)), { msg: 'GET / 200 1.5 ms' });
  // Without a terminal, pretty has no colours; the request line's fields stay in its message.
  t.regex(logged({ level: 'info', format: 'pretty' }, false), /^\[[\d:.]+\] INFO: GET \/ 200 1\.5 ms\n$/);
});

test('the level hides what is below it; silent hides everything', (t) => {
  t.is(logged({ level: 'warn', format: 'json' }, false), '');
  t.is(logged({ level: 'silent', format: 'pretty' }, false), '');
  const out = sink(false);
  createLogger({ level: 'debug', format: 'json' }, out).debug('shown at debug');
  t.like(JSON.parse(out.text()), { level: 20, msg: 'shown at debug' });
});

/**
 * A process logging JSON lines to a standard output nobody reads yet: about 48 MB of lines, more than
 * the backlog holds (4,800 lines of 10 KB). Says on standard error when it has logged them all, stays
 * up past the drop report (due a second after the first drop), then ends by itself once standard
 * output has taken every line kept: a process.exit() while a piece is half written would cut a line.
 */
const FLOODING_CHILD = `
const { createLogger } = require('./src/log/create-logger');
const logger = createLogger({ level: 'info', format: 'json' });
const filler = 'x'.repeat(10000);
for (let i = 0; i < 4800; i++) logger.info({ i, filler }, 'line');
process.stderr.write('logged\\n');
setTimeout(() => undefined, 1500);
`;

test('standard output that does not keep up: the backlog is bounded, lines past it dropped and counted', async (t) => {
  const child = spawn(process.execPath, [...TYPESCRIPT, '-e', FLOODING_CHILD], { cwd: path.resolve(__dirname, '../..') });
  // Standard output is not read until the child has logged everything: its pipe fills and the lines wait in the process.
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (chunk.toString().includes('logged') ? resolve() : undefined));
    child.on('exit', (code) => reject(new Error(`the child exited (${String(code)}) before logging everything`)));
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  t.is(code, 0);
  const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter((line) => line !== '');
  const records = lines.map((line) => JSON.parse(line) as { i?: number; msg: string; droppedLines?: number });
  const kept = records.filter((record) => record.msg === 'line');
  const report = records.find((record) => record.droppedLines !== undefined);
  t.truthy(report, 'a warning says lines were dropped');
  t.regex(report?.msg ?? '', /^\d+ log lines dropped: standard output did not take them \(more than 32 MiB were waiting\)$/);
  // Every line is either written whole or counted as dropped; the oldest ones, already waiting, are kept in order.
  t.is(kept.length + (report?.droppedLines ?? 0), 4800);
  t.true(kept.length < 4800);
  t.deepEqual(kept.slice(0, 100).map((record) => record.i), [...Array(100).keys()]);
});

function jsonLine(config: LogConfig, log: (logger: ReturnType<typeof createLogger>) => void): Record<string, unknown> {
  const out = sink(false);
  log(createLogger(config, out));
  return JSON.parse(out.text()) as Record<string, unknown>;
}

test('fields named like secrets are written as ****** at any depth; the others are kept', (t) => {
  const line = jsonLine({ level: 'info', format: 'json' }, (logger) =>
    logger.info({ user: 'ada', password: 'SECRETPW', nested: { apiToken: 'SECRETTOKEN', city: 'Paris' }, list: [{ pw: 'SECRETLIST' }] }, 'msg'),
  );
  t.like(line, { user: 'ada', password: '******', nested: { apiToken: '******', city: 'Paris' }, list: [{ pw: '******' }], msg: 'msg' });
});

test('extra names (LogConfig.redact) are secret as well, in a child logger’s lines too', (t) => {
  const line = jsonLine({ level: 'info', format: 'json', redact: ['ssn'] }, (logger) => logger.child({ requestId: 'r1' }).info({ ssn: 'SECRETSSN', name: 'ada' }, 'msg'));
  t.like(line, { requestId: 'r1', ssn: '******', name: 'ada' });
});

test('the pretty format hides them too', (t) => {
  const out = sink(false);
  createLogger({ level: 'info', format: 'pretty' }, out).info({ password: 'SECRETPRETTY', user: 'ada' }, 'msg');
  t.false(out.text().includes('SECRETPRETTY'));
});

test('an Error is left to pino’s serializer; the request line keeps its token, the profile’s X-Debug-Token', (t) => {
  const line = jsonLine({ level: 'info', format: 'json' }, (logger) => logger.error({ err: new Error('boom'), method: 'GET', status: 500 }, 'failed'));
  t.like(line, { err: { type: 'Error', message: 'boom' } });
  t.regex(String((line['err'] as { stack?: unknown }).stack), /^Error: boom/);
  const request = jsonLine({ level: 'info', format: 'json' }, (logger) => logger.info({ method: 'GET', path: '/', status: 200, durationMs: 1.5, token: 'a1b2c3' }, 'GET / 200'));
  t.is(request['token'], 'a1b2c3');
  const other = jsonLine({ level: 'info', format: 'json' }, (logger) => logger.info({ token: 'SECRETTOKEN' }, 'not the request line'));
  t.is(other['token'], '******');
});
