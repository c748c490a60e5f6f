import test from 'ava';
import { closeFrame, encodeFrame, FrameReader, OPCODE } from '../../../src/profiler/serve/web-socket-frames';

/** A frame as a client sends it: masked (RFC 6455 §5.3). */
function clientFrame(opcode: number, text: string, fin = true): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const length = payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode]), length, mask, payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0))]);
}

test('a server frame is unmasked, with the length in 7, 16 or 64 bits', (t) => {
  t.deepEqual([...encodeFrame(OPCODE.text, 'hi')], [0x81, 2, 0x68, 0x69]);
  const medium = encodeFrame(OPCODE.text, 'x'.repeat(300));
  t.deepEqual([medium[1], medium.readUInt16BE(2), medium.length], [126, 300, 4 + 300]);
  const large = encodeFrame(OPCODE.text, Buffer.alloc(70_000));
  t.deepEqual([large[1], Number(large.readBigUInt64BE(2)), large.length], [127, 70_000, 10 + 70_000]);
  t.deepEqual([...closeFrame(1001)], [0x88, 2, 0x03, 0xe9]);
});

test('a client frame split anywhere is read once whole, unmasked', (t) => {
  const reader = new FrameReader(1024);
  const bytes = Buffer.concat([clientFrame(OPCODE.text, 'hello'), clientFrame(OPCODE.ping, '')]);
  const frames = [...bytes].flatMap((byte) => {
    const read = reader.push(Buffer.from([byte]));
    if (!Array.isArray(read)) throw new Error(read.reason);
    return read;
  });
  t.deepEqual(
    frames.map((frame) => [frame.fin, frame.opcode, frame.payload.toString()]),
    [
      [true, OPCODE.text, 'hello'],
      [true, OPCODE.ping, ''],
    ],
  );
});

test('an unmasked client frame is a protocol error (1002)', (t) => {
  t.like(new FrameReader(1024).push(encodeFrame(OPCODE.text, 'hi')), { code: 1002 });
});

test('a client frame longer than the limit is refused (1009) as soon as its length is read', (t) => {
  const header = clientFrame(OPCODE.text, 'x'.repeat(200)).subarray(0, 4);
  t.like(new FrameReader(100).push(header), { code: 1009 });
  t.deepEqual(new FrameReader(200).push(header), []);
});
