import http from "node:http";
import https from "node:https";

/** What the client reads of a response's head: fetch's `Response` has the same shape. */
export interface ResponseHead {
  status: number;
  headers: { get(name: string): string | null };
}

// One pool of kept-alive connections per protocol, for every client in the process: a poll makes
// hundreds of small calls to the same service.
const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** node:http or node:https for `url`, with its kept-alive agent. */
export function transportFor(url: URL): { module: typeof http | typeof https; agent: http.Agent } {
  return url.protocol === "https:"
    ? { module: https, agent: agents["https:"] }
    : { module: http, agent: agents["http:"] };
}

export function responseHead(response: http.IncomingMessage): ResponseHead {
  return {
    status: response.statusCode ?? 0,
    headers: { get: (name) => headerValue(response.headers[name.toLowerCase()]) },
  };
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
