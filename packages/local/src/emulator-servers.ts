/**
 * The emulator servers themselves, dynalite (DynamoDB) and fauxqs (SNS, SQS, S3), on 127.0.0.1
 * ephemeral ports, counting the requests they serve by API operation (what AWS bills by). They run
 * in the caller's process, or in a child process of their own (`emulator-process.ts`) where a
 * benchmark must not share a CPU with them, as the services never do in AWS.
 */
import type { IncomingHttpHeaders, IncomingMessage, Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { buildApp } from "fauxqs";
import { giveFauxqsTheSqsCharacterSet } from "./fauxqs-parity.js";

export const REGION = "us-east-1";
const HOST = "127.0.0.1";

export interface EmulatorServers {
  /** http://127.0.0.1:<port> of dynalite. */
  dynamodb: string;
  /** http://127.0.0.1:<port> of fauxqs: SNS, SQS and S3 alike. */
  fauxqs: string;
  /** Requests served so far, by "<service> <operation>" (S3: by HTTP method). */
  requestCounts(): Record<string, number>;
  close(): Promise<void>;
}

export async function startEmulatorServers(): Promise<EmulatorServers> {
  const counts: Record<string, number> = {};
  const count = (operation: string) => {
    counts[operation] = (counts[operation] ?? 0) + 1;
  };
  const dynamodbServer = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  dynamodbServer.on("request", (request: IncomingMessage) =>
    count(`DynamoDB ${String(request.headers["x-amz-target"]).split(".").at(-1)}`),
  );
  await new Promise<void>((resolve, reject) => {
    dynamodbServer.once("error", reject);
    dynamodbServer.listen(0, HOST, () => resolve());
  });
  try {
    const fauxqs = await startFauxqsOnLoopback(count);
    return {
      dynamodb: `http://${HOST}:${(dynamodbServer.address() as AddressInfo).port}`,
      fauxqs: fauxqs.endpoint,
      requestCounts: () => ({ ...counts }),
      close: async () => {
        await fauxqs.close();
        await closeDynalite(dynamodbServer);
      },
    };
  } catch (error) {
    await closeDynalite(dynamodbServer);
    throw error;
  }
}

// dynalite ships no type declarations (and no @types package is installed): load it through require
// and describe the little that is used.
interface DynaliteOptions {
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}
const dynalite = createRequire(import.meta.url)("dynalite") as (options: DynaliteOptions) => Server;

/**
 * The part of the Fastify app from fauxqs's `buildApp()` used here. fauxqs 1.9.2's declaration of its
 * return type does not resolve ("Cannot find namespace 'Fastify'"; hidden by skipLibCheck), so it
 * would otherwise be `any`.
 */
interface FauxqsRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}
interface FauxqsApp {
  addHook(name: "preHandler", hook: (request: FauxqsRequest) => Promise<void>): void;
  addHook(
    name: "onSend",
    hook: (request: { headers: IncomingHttpHeaders }, reply: unknown, payload: unknown) => Promise<unknown>,
  ): void;
  listen(options: { port: number; host: string }): Promise<string>;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * fauxqs on 127.0.0.1 only. Its `startFauxqs()` always binds 0.0.0.0, so this builds the app and
 * listens itself.
 *
 * fauxqs also names queues `http://sqs.<region>.localhost:<port>/000000000000/<name>`. That name does
 * not resolve here (only `localhost` itself is in /etc/hosts), and an SQSClient configured from
 * AWS_ENDPOINT_URL_SQS (as handlers are) sends each request to its QueueUrl's host whenever it differs
 * from the endpoint, so it would fail with ENOTFOUND. fauxqs looks queues up by the exact URL string,
 * so the URL is translated at the server's edge instead: clients only ever see
 * `http://127.0.0.1:<port>/000000000000/<name>`, like an AWS queue URL on the endpoint's own host.
 */
async function startFauxqsOnLoopback(
  count: (operation: string) => void,
): Promise<{ endpoint: string; close: () => Promise<void> }> {
  await giveFauxqsTheSqsCharacterSet();
  const app: FauxqsApp = buildApp({ logger: false });
  let publicBase = "";
  let internalBase = "";
  const isSqs = (contentType: string | undefined) =>
    contentType?.includes("application/x-amz-json-1.0") === true;
  app.addHook("preHandler", async (request) => {
    const body: unknown = request.body;
    count(operationOf(request));
    if (!isSqs(request.headers["content-type"]) || !isRecord(body) || typeof body.QueueUrl !== "string")
      return;
    if (body.QueueUrl.startsWith(publicBase)) {
      body.QueueUrl = internalBase + body.QueueUrl.slice(publicBase.length);
    }
  });
  // Only CreateQueue, GetQueueUrl, ListQueues and errors return queue URLs; no client ever sees an
  // internal URL, so none can be inside a message body either.
  app.addHook("onSend", async (request, _reply, payload) =>
    isSqs(request.headers["content-type"]) && typeof payload === "string"
      ? payload.replaceAll(internalBase, publicBase)
      : payload,
  );
  await app.listen({ port: 0, host: HOST });
  const { port } = app.server.address() as AddressInfo;
  publicBase = `http://${HOST}:${port}/`;
  internalBase = `http://sqs.${REGION}.localhost:${port}/`;
  // fauxqs sets forceCloseConnections, so close() does not wait for clients' keep-alive sockets.
  return { endpoint: `http://${HOST}:${port}`, close: () => app.close() };
}

function closeDynalite(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // dynalite's close() waits for the HTTP server to close, which waits for open keep-alive sockets
    // (for example from a client a test built from env() and never destroyed): drop them.
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/** SQS speaks JSON (the operation in X-Amz-Target), SNS the query protocol (Action), S3 REST. */
function operationOf(request: FauxqsRequest): string {
  const target = request.headers["x-amz-target"];
  if (typeof target === "string") return `SQS ${target.split(".").at(-1)}`;
  if (isRecord(request.body) && typeof request.body.Action === "string") return `SNS ${request.body.Action}`;
  return `S3 ${request.method}`;
}

/** A JSON object (not an array or null): how requests and notifications are read here. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
