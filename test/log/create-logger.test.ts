import test from 'ava';
import { PassThrough } from 'node:stream';
import { createLogger } from '../../src/log/create-logger';
import { type LogConfig } from '../../src/log/log-config';

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
