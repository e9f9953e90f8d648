import { Writable } from "node:stream";

/**
 * A Writable that cuts what is written to it into parts of `partBytes` (the last one shorter) and
 * hands each, numbered from 1, to `send`. It copies the bytes into two buffers allocated once: one
 * part is sent while the next fills, and a full part waits (back-pressure on the writer) until the
 * one before is sent. So its memory is two parts whatever the length of the stream, and it leaves
 * no garbage behind per part. `send` must be done with a part's bytes when its promise settles.
 * A failed `send` fails the stream at the next part, or at its end.
 */
export function partWriter(
  partBytes: number,
  send: (partNumber: number, bytes: Buffer) => Promise<void>,
): Writable {
  // Not from Node's shared pool, and not zeroed: only the bytes written are ever sent.
  let filling = Buffer.allocUnsafeSlow(partBytes);
  let spare = Buffer.allocUnsafeSlow(partBytes);
  let filled = 0;
  let partNumber = 0;
  let sending: Promise<void> = Promise.resolve();

  const handOver = async () => {
    await sending; // the other buffer is free once its part is sent
    const part = filling.subarray(0, filled);
    sending = send(++partNumber, part);
    // Awaited before the next part or at the end; until then its failure must not go unhandled.
    sending.catch(() => undefined);
    [filling, spare] = [spare, filling];
    filled = 0;
  };

  /** Copies `chunk` from `at` on, handing over each part it fills. */
  const take = async (chunk: Buffer, at: number): Promise<void> => {
    while (at < chunk.length) {
      const copied = chunk.copy(filling, filled, at);
      filled += copied;
      at += copied;
      if (filled === partBytes) await handOver();
    }
  };

  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Most chunks fit in the part that fills: no promise for those.
      const room = partBytes - filled;
      if (chunk.length < room) {
        chunk.copy(filling, filled);
        filled += chunk.length;
        done();
        return;
      }
      take(chunk, 0).then(() => done(), done);
    },
    final(done) {
      const last = async () => {
        if (filled > 0) await handOver();
        await sending;
      };
      last().then(() => done(), done);
    },
  });
}
