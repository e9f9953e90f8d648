/**
 * A meter in front of the DynamoDB emulator: what a handler's requests would be billed on demand.
 * It forwards every request to dynalite with `ReturnConsumedCapacity: "TOTAL"` added, and sums
 * the capacity dynalite computes from the items' sizes (a write unit per KB of each item written,
 * the larger of before and after for an update; a read unit per 4 KB, half for an eventually
 * consistent read), so a batch is billed per item, as DynamoDB does, not per request. A handler
 * that asked for the capacity itself gets it back; otherwise the answer carries it too, which the
 * SDK reads past. Only for the bench's own handlers on 127.0.0.1.
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export interface DynamoUsage {
  /** Requests by operation ("PutItem", "BatchWriteItem", ...). */
  requests: Record<string, number>;
  writeUnits: number;
  readUnits: number;
}

export interface DynamoMeter {
  /** The endpoint to give the handler (AWS_ENDPOINT_URL_DYNAMODB). */
  endpoint: string;
  /** What was requested since the meter started. */
  usage(): DynamoUsage;
  close(): Promise<void>;
}

type Capacity = { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> | undefined;
const READS = new Set(["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"]);

export async function meterDynamo(emulatorEndpoint: string): Promise<DynamoMeter> {
  const target = new URL(emulatorEndpoint);
  const totals: DynamoUsage = { requests: {}, writeUnits: 0, readUnits: 0 };
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const operation = String(incoming.headers["x-amz-target"]).split(".").at(-1) ?? "?";
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    const forwarded = Buffer.from(JSON.stringify({ ...body, ReturnConsumedCapacity: "TOTAL" }));
    const headers = { ...incoming.headers, "content-length": String(forwarded.length) };
    // The signature covers the body; dynalite does not check it.
    const answer = httpRequest(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
      async (response) => {
        const parts: Buffer[] = [];
        for await (const part of response) parts.push(part as Buffer);
        const text = Buffer.concat(parts).toString("utf8");
        totals.requests[operation] = (totals.requests[operation] ?? 0) + 1;
        const units = unitsOf((JSON.parse(text || "{}") as { ConsumedCapacity?: Capacity }).ConsumedCapacity);
        if (READS.has(operation)) totals.readUnits += units;
        else totals.writeUnits += units;
        const { "content-length": _length, ...rest } = response.headers;
        outgoing.writeHead(response.statusCode ?? 500, {
          ...rest,
          "content-length": Buffer.byteLength(text),
        });
        outgoing.end(text);
      },
    );
    answer.on("error", (error) => outgoing.destroy(error));
    answer.end(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    usage: () => ({ ...totals, requests: { ...totals.requests } }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function unitsOf(capacity: Capacity): number {
  const entries = Array.isArray(capacity) ? capacity : capacity ? [capacity] : [];
  return entries.reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);
}

/** What was used between two readings of a meter. */
export function usageBetween(before: DynamoUsage, after: DynamoUsage): DynamoUsage {
  const requests = Object.fromEntries(
    Object.entries(after.requests)
      .map(([operation, count]) => [operation, count - (before.requests[operation] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  return {
    requests,
    writeUnits: after.writeUnits - before.writeUnits,
    readUnits: after.readUnits - before.readUnits,
  };
}
