/**
 * The HTTP server: routing, fault injection, the request log, and sending replies (whole bodies
 * or streamed MP4 with backpressure).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { type EndpointName, PLAYBACK_PREFIX, POST_PATHS } from "./endpoints.js";
import { DEFAULT_CUT_AFTER_BYTES, type FaultInjector, type FaultKind, type FaultRule } from "./faults.js";
import { type BodyReply, errorReply, HttpError, JSON_CONTENT_TYPE, jsonReply, readBody } from "./http.js";
import { mp4Chunks } from "./mp4.js";
import { type PlaybackContext, type PlaybackPlan, type PlaybackRecord, preparePlayback } from "./playback.js";
import { handlePost, type RouteContext } from "./routes.js";

export interface RequestLogEntry {
  /** null for paths that are no endpoint (answered 404). */
  endpoint: EndpointName | null;
  method: string;
  /** The response status; null while in flight, or when a connectionReset fault sent none. */
  status: number | null;
  /** The fault that shaped the response ("latency" when the only fault was a delay). */
  fault?: FaultKind;
  latencyMs?: number;
  /** Real (wall-clock) arrival time, so tests can measure retry spacing. */
  at: Date;
}

export interface ServerContext {
  routes: RouteContext;
  playback: PlaybackContext;
  faults: FaultInjector;
  requestLog: RequestLogEntry[];
  playbacks: PlaybackRecord[];
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(port: number, context: ServerContext): Promise<RunningServer> {
  const shutdown = new AbortController();
  const server = createServer((request, response) => {
    handleRequest(request, response, context, shutdown.signal).catch((error: unknown) => {
      // Closing, or the client went away (e.g. mid-body): nobody is left to answer.
      if (shutdown.signal.aborted || request.socket.destroyed) return;
      console.error("simulator: unexpected error while handling a request", error);
      if (response.headersSent) response.destroy();
      else sendBody(response, errorReply(new HttpError(500, "internal_error", "unexpected simulator error")));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${boundPort}`,
    close: () => closeServer(server, shutdown),
  };
}

async function closeServer(server: Server, shutdown: AbortController): Promise<void> {
  shutdown.abort();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Also ends in-flight responses, playback streams included.
  server.closeAllConnections();
  await closed;
}

async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  context: ServerContext,
  signal: AbortSignal,
): Promise<void> {
  const method = request.method ?? "GET";
  const path = (request.url ?? "/").split("?")[0] ?? "/";
  const endpoint = POST_PATHS.get(path) ?? (path.startsWith(PLAYBACK_PREFIX) ? "dlplayback" : undefined);
  const entry: RequestLogEntry = { endpoint: endpoint ?? null, method, status: null, at: new Date() };
  context.requestLog.push(entry);
  if (endpoint === undefined) {
    request.resume();
    entry.status = sendBody(
      response,
      errorReply(new HttpError(404, "not_found", "no endpoint at this path")),
    );
    return;
  }
  const expectedMethod = endpoint === "dlplayback" ? "GET" : "POST";
  const body = await readRequestBody(request, method === "POST" && expectedMethod === "POST");

  const { latencyMs, fault } = context.faults.decide(endpoint);
  if (latencyMs > 0) {
    entry.latencyMs = latencyMs;
    entry.fault = "latency";
    await sleep(latencyMs, undefined, { signal });
  }
  if (fault) entry.fault = fault.kind;
  if (fault?.kind === "connectionReset") {
    // A TCP RST: the client sees ECONNRESET, not an HTTP response.
    request.socket.resetAndDestroy();
    return;
  }
  const replacement = fault && faultReply(fault);
  if (replacement) {
    entry.status = sendBody(response, replacement);
    return;
  }

  let reply: BodyReply | PlaybackPlan;
  try {
    if (method !== expectedMethod) {
      throw new HttpError(405, "method_not_allowed", `use ${expectedMethod} for this endpoint`, {
        allow: expectedMethod,
      });
    }
    if (body instanceof HttpError) throw body;
    reply =
      endpoint === "dlplayback"
        ? await preparePlayback(path.slice(PLAYBACK_PREFIX.length), context.playback)
        : handlePost(endpoint, request.headers["content-type"], body, context.routes);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    reply = errorReply(error);
  }
  await deliver(response, reply, fault, entry, context.playbacks);
}

/** The POST body, or the HttpError (413) to answer once faults have had their say. */
async function readRequestBody(request: IncomingMessage, wanted: boolean): Promise<Buffer | HttpError> {
  if (!wanted) {
    request.resume();
    return Buffer.alloc(0);
  }
  try {
    return await readBody(request);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

/** Sends the endpoint's reply, shaped by the faults that act on a real response. */
async function deliver(
  response: ServerResponse,
  reply: BodyReply | PlaybackPlan,
  fault: FaultRule | undefined,
  entry: RequestLogEntry,
  playbacks: PlaybackRecord[],
): Promise<void> {
  const cutAfterBytes =
    fault?.kind === "playbackCut" ? (fault.cutAfterBytes ?? DEFAULT_CUT_AFTER_BYTES) : undefined;
  const truncate = fault?.kind === "truncatedJson";
  if (!("plan" in reply)) {
    entry.status = sendBody(response, truncate ? truncated(reply) : reply, cutAfterBytes);
  } else if (truncate) {
    // As if the service answered JSON instead of the file, cut short.
    entry.status = sendBody(
      response,
      truncated(jsonReply(200, { error: "internal_error", message: "no file" })),
    );
  } else {
    playbacks.push(reply.record);
    entry.status = 200;
    await streamPlayback(response, reply, cutAfterBytes);
  }
}

/** Faults that replace the response without running the endpoint. */
function faultReply(fault: FaultRule): BodyReply | undefined {
  const retryAfter =
    fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
  switch (fault.kind) {
    case "status500":
      return errorReply(new HttpError(500, "internal_error", "simulated internal server error"));
    case "status503":
      return errorReply(new HttpError(503, "service_unavailable", "simulated overload", retryAfter));
    case "status429":
      return errorReply(new HttpError(429, "rate_limited", "simulated rate limit", retryAfter));
    case "htmlPage200":
      return {
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: Buffer.from(
          "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>" +
            "<body><h1>Bad Gateway</h1><p>The proxy server received an invalid response from an upstream server.</p>" +
            "</body></html>",
        ),
      };
    case "malformedJson":
      return {
        status: 200,
        headers: { "content-type": JSON_CONTENT_TYPE },
        body: Buffer.from('[{"serialno": 1000001, deviceid: \'0012345678\', "eventtime": NaN,}]'),
      };
    default:
      return undefined;
  }
}

/** The first half of a (JSON) body; sendBody then announces the length of the half. */
function truncated(reply: BodyReply): BodyReply {
  return { ...reply, body: reply.body.subarray(0, Math.floor(reply.body.length / 2)) };
}

/**
 * Sends a whole body and returns its status. With `cutAfterBytes`, announces the full length but
 * closes the connection after that many bytes.
 */
function sendBody(response: ServerResponse, reply: BodyReply, cutAfterBytes?: number): number {
  response.writeHead(reply.status, { ...reply.headers, "content-length": reply.body.length });
  if (cutAfterBytes !== undefined && cutAfterBytes < reply.body.length) {
    response.write(reply.body.subarray(0, cutAfterBytes), () => response.destroy());
  } else {
    response.end(reply.body);
  }
  return reply.status;
}

/**
 * Streams the MP4 as it is generated: writes until the socket buffer is full, then waits for
 * 'drain', so a slow or paused reader holds the producer instead of filling memory.
 */
async function streamPlayback(
  response: ServerResponse,
  { plan, record, fileName }: PlaybackPlan,
  cutAfterBytes: number | undefined,
): Promise<void> {
  response.writeHead(200, {
    "content-type": "video/mp4",
    "content-length": plan.totalBytes,
    ...(fileName && {
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    }),
  });
  for (const chunk of mp4Chunks(plan)) {
    if (response.destroyed) {
      record.aborted = true;
      return;
    }
    const room = cutAfterBytes === undefined ? chunk.length : cutAfterBytes - record.bytesWritten;
    if (room < chunk.length) {
      record.cut = true;
      record.bytesWritten += Math.max(0, room);
      response.write(chunk.subarray(0, Math.max(0, room)), () => response.destroy());
      return;
    }
    record.bytesWritten += chunk.length;
    if (!response.write(chunk) && !(await drained(response))) {
      record.aborted = true;
      return;
    }
  }
  response.end(() => {
    record.finished = true;
  });
}

/** Resolves true on 'drain', false when the connection closes first. */
function drained(response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (value: boolean) => () => {
      response.off("drain", onDrain);
      response.off("close", onClose);
      resolve(value);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    response.on("drain", onDrain);
    response.on("close", onClose);
  });
}
