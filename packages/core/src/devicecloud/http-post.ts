import { type ResponseHead, responseHead, transportFor } from "./http-shared.js";

export interface PostedResponse extends ResponseHead {
  ok: boolean;
  /** The whole body, decoded as UTF-8. */
  text: string;
}

/**
 * POSTs `body` and reads the whole response as text, over node:http(s) with kept-alive
 * connections. Not `fetch`: for the small JSON calls the client makes by the hundred (an event
 * page, a GPS history per device), undici's fetch cost several times the CPU per call (its web
 * streams and signals), which a backlog catch-up pays on every call. Redirects are never followed.
 * An abort of `signal` destroys the request and rejects with the signal's reason; a connection
 * closed before the whole body arrived rejects with the socket's error.
 */
export function httpPost(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
): Promise<PostedResponse> {
  const { module, agent } = transportFor(url);
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const request = module.request(url, {
      method: "POST",
      agent,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    const onAbort = () =>
      request.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal.removeEventListener("abort", onAbort);
    request.on("error", (error) => {
      settle();
      reject(error);
    });
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("error", (error) => {
        settle();
        reject(error);
      });
      response.on("end", () => {
        settle();
        if (!response.complete) {
          reject(
            Object.assign(new Error("the connection closed before the whole body arrived"), {
              code: "ECONNRESET",
            }),
          );
          return;
        }
        const head = responseHead(response);
        resolve({ ...head, ok: head.status >= 200 && head.status < 300, text });
      });
    });
    request.end(body);
  });
}
