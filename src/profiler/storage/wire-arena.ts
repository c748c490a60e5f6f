/**
 * Profiles on their way to Redis, as the bytes of the write script's arguments (RESP bulk strings),
 * encoded once as each profile is queued into pooled buffers that live outside V8's heap.
 *
 * Why: under load a profile waits some 15 ms between being queued and its batch's answer (the
 * previous batch's turn, then its own). Kept as JavaScript strings, the queued profiles and the
 * command text ioredis builds of them were alive at every scavenge, which copied them and promoted
 * them to the old generation: a Fastify 404's scavenges had twice the survivors of OpenTelemetry's
 * (`bench/micro/gc-trace.sh`). As pooled bytes, the scavenger sees one small object a profile. Fresh
 * buffers for every batch would not do: V8 answers external memory that keeps growing with full
 * collections. So both the arenas profiles are encoded into and the commands' buffers are reused.
 */

const CRLF = 0x0d0a;

/** Bytes of a pooled buffer: a batch of 404s is some 250 KB, a batch of 256 routed profiles about 1 MB. */
const POOLED_BYTES = 1024 * 1024;

/** Spare buffers kept; more are left to the garbage collector. */
const SPARE_BUFFERS = 4;

/** Reusable buffers of POOLED_BYTES; a larger one asked for is made for the occasion and not kept. */
class BufferPool {
  readonly #spare: Buffer[] = [];

  take(bytes: number): Buffer {
    if (bytes > POOLED_BYTES) return Buffer.allocUnsafeSlow(bytes);
    return this.#spare.pop() ?? Buffer.allocUnsafeSlow(POOLED_BYTES);
  }

  give(buffer: Buffer): void {
    if (buffer.length === POOLED_BYTES && this.#spare.length < SPARE_BUFFERS) this.#spare.push(buffer);
  }
}

/** A buffer profiles are encoded into, one after another; reused once every block in it was copied out. */
export class Arena {
  used = 0;
  blocks = 0;
  released = 0;
  sealed = false;
  constructor(readonly buffer: Buffer) {}
}

/** One profile's four arguments to the write script (token, start time, search row, JSON), in an arena. */
export class WireBlock {
  constructor(
    readonly arena: Arena,
    readonly start: number,
    readonly end: number,
    /** Where the profile's JSON is, within the block. */
    readonly jsonStart: number,
  ) {}

  /** The profile's JSON, copied out (for a storage that keeps bytes rather than sending them); only before the block went into a command. */
  jsonBytes(): Buffer {
    return Buffer.from(this.arena.buffer.subarray(this.jsonStart, this.end - 2));
  }
}

/** A command's bytes in a pooled buffer, handed back with `done` once Redis answered it. */
export interface WireCommand {
  readonly bytes: Buffer;
  /** Gives the buffer back, unless the command failed: then its socket may still be sending it. */
  done(answered: boolean): void;
}

/**
 * Encodes profiles as they are queued and joins them into commands. A block's bytes are copied into
 * its command when the batch is written, and its arena goes back to the pool once all of its
 * blocks were. Blocks that are never written (a queue dropped while Redis was away) keep their
 * arena from the pool: the garbage collector frees it with them.
 */
export class WireArena {
  readonly #pool = new BufferPool();
  #current: Arena | null = null;

  /** `token`, `time`, `row` and `json` as the script's arguments, appended to the current arena. */
  encode(token: string, time: number, row: string, json: string | Buffer): WireBlock {
    const timeText = String(time);
    const jsonBytes = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
    const head = `$${token.length}\r\n${token}\r\n$${timeText.length}\r\n${timeText}\r\n$${Buffer.byteLength(row)}\r\n${row}\r\n$${jsonBytes}\r\n`;
    // A UTF-16 code unit of `head` takes at most three bytes.
    const arena = this.#arenaFor(head.length * 3 + jsonBytes + 2);
    const { buffer } = arena;
    const start = arena.used;
    const jsonStart = start + buffer.write(head, start);
    let end = jsonStart + (typeof json === 'string' ? buffer.write(json, jsonStart) : json.copy(buffer, jsonStart));
    end = buffer.writeUInt16BE(CRLF, end);
    arena.used = end;
    arena.blocks += 1;
    return new WireBlock(arena, start, end, jsonStart);
  }

  /** `header` (the command's name and first arguments, RESP) followed by the blocks' bytes. */
  command(header: string, blocks: readonly WireBlock[]): WireCommand {
    let bytes = Buffer.byteLength(header);
    for (const block of blocks) bytes += block.end - block.start;
    const buffer = this.#pool.take(bytes);
    let at = buffer.write(header, 0);
    for (const block of blocks) {
      at += block.arena.buffer.copy(buffer, at, block.start, block.end);
      this.#release(block.arena);
    }
    return {
      bytes: buffer.subarray(0, at),
      done: (answered) => {
        if (answered) this.#pool.give(buffer);
      },
    };
  }

  #arenaFor(bytes: number): Arena {
    const current = this.#current;
    if (current !== null && current.used + bytes <= current.buffer.length) return current;
    if (current !== null) {
      current.sealed = true;
      this.#recycle(current);
    }
    const arena = new Arena(this.#pool.take(bytes));
    this.#current = arena;
    return arena;
  }

  #release(arena: Arena): void {
    arena.released += 1;
    this.#recycle(arena);
  }

  #recycle(arena: Arena): void {
    if (arena.released !== arena.blocks) return;
    if (arena.sealed) {
      this.#pool.give(arena.buffer);
    } else {
      // The current arena, every block of it sent: profiles queued from now on start at its beginning.
      arena.used = 0;
      arena.blocks = 0;
      arena.released = 0;
    }
  }
}
