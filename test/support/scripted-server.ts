import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Reply = (response: ServerResponse) => void;

/**
 * A loopback HTTP server that records every request and answers with the scripted replies in order
 * (the last one repeats). For checking the exact bytes the client sends, which the simulator would
 * only accept or refuse.
 */
export async function startScriptedServer(replies: Reply[]) {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)];
      reply?.(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };

export const raw =
  (status: number, body: string, headers: Record<string, string>): Reply =>
  (response) => {
    response.writeHead(status, headers);
    response.end(body);
  };

/** Never answers: for time-outs. */
export const silence: Reply = () => undefined;
