import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { DeviceCloudTimeoutError, PlaybackNotMp4Error, PlaybackTruncatedError } from "./errors.js";
import { httpGet } from "./http-get.js";
import { responseHead } from "./http-shared.js";
import type { PlaybackUrl } from "./playback-request.js";
import { withRetries } from "./retry.js";
import { httpError, type TransportOptions, toDeviceCloudError } from "./transport.js";

export interface PlaybackTimeouts {
  /** From sending the request to having the status and the first bytes. */
  responseTimeoutMs: number;
  /** Longest wait for the next bytes while the body streams (time the reader spends is not counted). */
  idleTimeoutMs: number;
}

export interface PlaybackDownload extends Omit<PlaybackUrl, "url"> {
  /**
   * The MP4 bytes, `ftyp` box first, streamed as they arrive (never buffered whole). It errors with
   * a PlaybackTruncatedError when the connection ends early or short of Content-Length, and with a
   * DeviceCloudTimeoutError (phase `idle`) when the service stalls. Destroying it aborts the download.
   */
  body: Readable;
  /** The announced size, when the service sent Content-Length. */
  contentLength?: number;
}

const MP4_HEAD_BYTES = 8;

/**
 * Requests the playback and checks the status and the first bytes (an ISO BMFF `ftyp` box) before
 * handing over the stream. Failures before the body is handed over are retried like any call.
 */
export async function downloadPlayback(
  transport: TransportOptions,
  playback: PlaybackUrl,
  timeouts: PlaybackTimeouts,
  signal?: AbortSignal,
): Promise<PlaybackDownload> {
  const retryContext = {
    policy: transport.retry,
    logger: transport.logger,
    random: transport.random,
    signal,
  };
  return withRetries(retryContext, async (attempt) => {
    const controller = new AbortController();
    const abortWithCaller = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", abortWithCaller, { once: true });
    let timedOut = false;
    const responseTimer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeouts.responseTimeoutMs);
    const release = () => {
      clearTimeout(responseTimer);
      signal?.removeEventListener("abort", abortWithCaller);
    };
    try {
      const response = await httpGet(playback.url, controller.signal);
      const head = responseHead(response);
      if (head.status < 200 || head.status >= 300)
        throw httpError("playback", head, await readText(response), attempt, transport.secrets);
      const chunks = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      const first = await readAtLeast(chunks, MP4_HEAD_BYTES);
      if (!startsWithFtypBox(first)) {
        response.destroy();
        throw new PlaybackNotMp4Error(sniffBody(first));
      }
      clearTimeout(responseTimer);
      const contentLength = parseContentLength(head.headers.get("content-length"));
      const body = streamBody({
        response,
        chunks,
        head: first,
        contentLength,
        timeouts,
        attempt,
        controller,
        signal,
        release,
      });
      return {
        body: Readable.from(body, { objectMode: false }),
        contentLength,
        redactedUrl: playback.redactedUrl,
        request: playback.request,
      };
    } catch (error) {
      release();
      controller.abort();
      throw toDeviceCloudError(error, {
        endpoint: "playback",
        attempt,
        timeoutMs: timeouts.responseTimeoutMs,
        timedOut,
        signal,
      });
    }
  });
}

interface BodyStream {
  response: IncomingMessage;
  chunks: AsyncIterator<Buffer>;
  head: Buffer;
  contentLength: number | undefined;
  timeouts: PlaybackTimeouts;
  attempt: number;
  controller: AbortController;
  signal: AbortSignal | undefined;
  release: () => void;
}

async function* streamBody(stream: BodyStream): AsyncGenerator<Buffer> {
  const { response, chunks, contentLength, timeouts, controller, signal } = stream;
  let received = stream.head.byteLength;
  let complete = false;
  try {
    yield stream.head;
    for (;;) {
      // The idle timer runs only while we wait on the network, not while the reader digests a chunk.
      let idle = false;
      const idleTimer = setTimeout(() => {
        idle = true;
        controller.abort();
      }, timeouts.idleTimeoutMs);
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch {
        if (signal?.aborted) throw signal.reason;
        if (idle)
          throw new DeviceCloudTimeoutError("playback", timeouts.idleTimeoutMs, stream.attempt, "idle");
        throw new PlaybackTruncatedError(contentLength, received);
      } finally {
        clearTimeout(idleTimer);
      }
      if (next.done) break;
      received += next.value.byteLength;
      yield next.value;
    }
    if (!response.complete || (contentLength !== undefined && received !== contentLength))
      throw new PlaybackTruncatedError(contentLength, received);
    complete = true;
  } finally {
    stream.release();
    // Stopped early (an error, or the consumer destroyed the stream): drop the connection.
    if (!complete) {
      controller.abort();
      response.destroy();
    }
  }
}

async function readAtLeast(chunks: AsyncIterator<Buffer>, bytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < bytes) {
    const next = await chunks.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.byteLength;
  }
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/** An error response's body, whole, as text (the service may explain itself in JSON). */
async function readText(response: IncomingMessage): Promise<string> {
  let text = "";
  response.setEncoding("utf8");
  for await (const chunk of response) text += chunk as string;
  return text;
}

/** An ISO BMFF file starts with a box header: a 32-bit size of at least 8, then the type `ftyp`. */
export function startsWithFtypBox(head: Uint8Array): boolean {
  if (head.byteLength < MP4_HEAD_BYTES) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const size = view.getUint32(0);
  return (
    (size === 1 || size >= MP4_HEAD_BYTES) && Buffer.from(head.subarray(4, 8)).toString("latin1") === "ftyp"
  );
}

function sniffBody(head: Uint8Array): PlaybackNotMp4Error["detectedAs"] {
  if (head.byteLength === 0) return "empty";
  const text = Buffer.from(head).toString("latin1").trimStart();
  if (text.startsWith("<")) return "html";
  if (text.startsWith("{") || text.startsWith("[")) return "json";
  return "unknown";
}

function parseContentLength(header: string | null): number | undefined {
  return header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
}
