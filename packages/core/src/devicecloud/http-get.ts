import type { IncomingMessage } from "node:http";
import { transportFor } from "./http-shared.js";

/**
 * GETs `url` over node:http(s) with kept-alive connections and resolves with the response as soon
 * as its status and headers are in; its body is a stream for the caller to read or destroy.
 * Not `fetch`: undici parses HTTP with a WebAssembly build of llhttp, and compiling it (again,
 * optimised, once a long download makes it hot) took the evidence function 30 MiB at its peak,
 * more than the clip's own buffers (`npm run bench`). node:http's parser is native. Redirects
 * are never followed. An abort of `signal` destroys the request, and the response if it has come:
 * its stream then fails.
 */
export function httpGet(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  const { module, agent } = transportFor(url);
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const request = module.get(url, { agent });
    const onAbort = () =>
      request.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    request.on("close", () => signal.removeEventListener("abort", onAbort));
    // Kept after the response: a late error must not go unhandled (rejecting then changes nothing).
    request.on("error", reject);
    request.on("response", resolve);
  });
}
