/** HTTP plumbing shared by the routes: the error type, replies, and reading a request body. */
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";

/**
 * The simulator's error response (the spec shows none): the given status with
 * `{"error":"<code>","message":"<human text>"}`. Messages name fields, never their values, so a
 * password or its hash is never echoed.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: OutgoingHttpHeaders = {},
  ) {
    super(message);
  }
}

/** A complete response held in memory (everything except playback video). */
export interface BodyReply {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
const MAX_BODY_BYTES = 1024 * 1024;

export function jsonReply(status: number, value: unknown, headers: OutgoingHttpHeaders = {}): BodyReply {
  return {
    status,
    headers: { "content-type": JSON_CONTENT_TYPE, ...headers },
    body: Buffer.from(JSON.stringify(value)),
  };
}

export function errorReply(error: HttpError): BodyReply {
  return jsonReply(error.status, { error: error.code, message: error.message }, error.headers);
}

/**
 * Reads the whole body. Bodies over 1 MiB (no endpoint needs more) are refused with 413; the rest
 * of such a body is left unread and the connection is closed after the reply.
 */
export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      request.off("data", onData);
      request.pause();
      reject(
        new HttpError(413, "payload_too_large", "the request body exceeds 1 MiB", { connection: "close" }),
      );
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks)));
    request.once("error", reject);
  });
}
