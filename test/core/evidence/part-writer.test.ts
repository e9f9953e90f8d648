import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { partWriter } from "../../../packages/core/src/evidence/part-writer.js";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Bytes 0..n-1 as their low byte, so that a misplaced byte shows. */
const counting = (length: number) => Buffer.from(Array.from({ length }, (_, i) => i & 0xff));

function chunked(bytes: Buffer, size: number): Readable {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return Readable.from(out);
}

describe("partWriter", () => {
  it.each([
    ["chunks smaller than a part", 7],
    ["chunks that straddle parts", 23],
    ["one chunk larger than two parts", 1_000],
  ])("cuts the stream into numbered parts of the size, the last shorter (%s)", async (_label, size) => {
    const input = counting(250);
    const parts: { partNumber: number; sha: string; length: number }[] = [];
    await pipeline(
      chunked(input, size),
      partWriter(100, async (partNumber, bytes) => {
        parts.push({ partNumber, sha: sha(bytes), length: bytes.length });
      }),
    );
    expect(parts).toEqual([
      { partNumber: 1, sha: sha(input.subarray(0, 100)), length: 100 },
      { partNumber: 2, sha: sha(input.subarray(100, 200)), length: 100 },
      { partNumber: 3, sha: sha(input.subarray(200)), length: 50 },
    ]);
  });

  it("sends one part at a time, and fills the next meanwhile in the other buffer", async () => {
    const input = counting(1_000);
    let sending = 0;
    let most = 0;
    const seen: string[] = [];
    await pipeline(
      chunked(input, 30),
      partWriter(100, async (_partNumber, bytes) => {
        sending++;
        most = Math.max(most, sending);
        const before = sha(bytes);
        // Slow: the writer must not touch these bytes until this settles.
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(sha(bytes)).toBe(before);
        seen.push(before);
        sending--;
      }),
    );
    expect(most).toBe(1);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => sha(input.subarray(i * 100, i * 100 + 100))));
  });

  it("sends nothing for an empty stream", async () => {
    let sent = 0;
    await pipeline(
      Readable.from([]),
      partWriter(100, async () => {
        sent++;
      }),
    );
    expect(sent).toBe(0);
  });

  it("fails the stream when a part cannot be sent, and sends no part after it", async () => {
    const sent: number[] = [];
    const refused = new Error("part refused");
    await expect(
      pipeline(
        chunked(counting(1_000), 10),
        partWriter(100, async (partNumber) => {
          sent.push(partNumber);
          if (partNumber === 2) throw refused;
        }),
      ),
    ).rejects.toBe(refused);
    expect(sent).toEqual([1, 2]);
  });

  it("fails at the end when the last part cannot be sent", async () => {
    const refused = new Error("last part refused");
    await expect(
      pipeline(
        chunked(counting(150), 50),
        partWriter(100, async (partNumber) => {
          if (partNumber === 2) throw refused;
        }),
      ),
    ).rejects.toBe(refused);
  });
});
