/** The opcodes of RFC 6455 §5.2 a server of text messages meets. */
export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** One frame from a client, unmasked. */
export interface ClientFrame {
  readonly fin: boolean;
  readonly opcode: number;
  readonly payload: Buffer;
}

/** Why a client's bytes cannot be read on: the close code to send (RFC 6455 §7.4.1) and the reason. */
export interface FrameError {
  readonly code: 1002 | 1009;
  readonly reason: string;
}

/** A frame from the server: never masked (§5.1), in one piece. */
export function encodeFrame(opcode: number, payload: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const length = body.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 0x10000 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) header[1] = length;
  else if (length < 0x10000) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, body]);
}

/** A close frame with its status code and a short reason. */
export function closeFrame(code: number, reason = ''): Buffer {
  const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
  payload.writeUInt16BE(code, 0);
  payload.write(reason, 2, 'utf8');
  return encodeFrame(OPCODE.close, payload);
}

/**
 * Reads a client's frames as its bytes come (§5.2): every frame must be masked (§5.1), and none
 * may announce more than `maxPayload` bytes, so that a client cannot make the server hold much.
 */
export class FrameReader {
  readonly #maxPayload: number;
  #buffered: Buffer = Buffer.alloc(0);

  constructor(maxPayload: number) {
    this.#maxPayload = maxPayload;
  }

  /** The frames completed by `chunk`, or why the connection must be closed. */
  push(chunk: Buffer): ClientFrame[] | FrameError {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    const frames: ClientFrame[] = [];
    for (;;) {
      const buffered = this.#buffered;
      if (buffered.length < 2) return frames;
      const first = buffered[0] ?? 0;
      const second = buffered[1] ?? 0;
      if ((second & 0x80) === 0) return { code: 1002, reason: 'client frames must be masked' };
      let length = second & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return frames;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return frames;
        const long = buffered.readBigUInt64BE(2);
        length = long > BigInt(this.#maxPayload) ? this.#maxPayload + 1 : Number(long);
        offset = 10;
      }
      if (length > this.#maxPayload) return { code: 1009, reason: 'message too big' };
      if (buffered.length < offset + 4 + length) return frames;
      const mask = buffered.subarray(offset, offset + 4);
      const payload = Buffer.from(buffered.subarray(offset + 4, offset + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
      frames.push({ fin: (first & 0x80) !== 0, opcode: first & 0x0f, payload });
      this.#buffered = buffered.subarray(offset + 4 + length);
    }
  }
}
