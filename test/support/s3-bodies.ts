import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { text } from "node:stream/consumers";
import type { S3Client } from "@aws-sdk/client-s3";

/**
 * Calls `onChunk` with each chunk's size as the code under test reads any GetObject body `s3` hands
 * out (its real AWS SDK client, on the emulator): how a test sees how far a reader runs ahead.
 */
export function onGetObjectChunks(s3: S3Client, onChunk: (bytes: number) => void): void {
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { Body?: Readable };
      if (context.commandName !== "GetObjectCommand" || !output.Body) return result;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          onChunk(chunk.length);
          done(null, chunk);
        },
      });
      // What the SDK's body offers besides being a stream, so that any way of reading it is counted.
      (output as { Body?: unknown }).Body = Object.assign(output.Body.pipe(counted), {
        transformToByteArray: async () => Buffer.concat(await counted.toArray()),
        transformToString: () => text(counted),
      });
      return result;
    },
    { step: "initialize", name: "onGetObjectChunks" },
  );
}
