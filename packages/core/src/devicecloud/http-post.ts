import { type ResponseHead, responseHead, transportFor } from "./http-shared.js";

export interface PostedResponse extends ResponseHead {
  ok: boolean;
  /** The whole body, decoded as UTF-8. */
  text: string;
}

/** What `httpPost` rejects with when its time-out passed before the whole body arrived. */
export class PostTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no whole response within ${timeoutMs} ms`);
    this.name = "PostTimeoutError";
  }
}

export interface PostLimits {
  /** From sending the request to having the whole body. */
  timeoutMs: number;
  /** The caller's own abort (a deadline, say), passed through as its reason. */
  signal?: AbortSignal;
}

/**
 * POSTs `body` and reads the whole response as text, over node:http(s) with kept-alive
 * connections. Not `fetch`: for the small JSON calls the client makes by the hundred (an event
 * page, a GPS history per device), undici's fetch cost several times the CPU per call (its web
 * streams and signals), which a backlog catch-up pays on every call; for the same reason the
 * time-out is a plain timer, not an `AbortSignal.timeout` joined to the caller's signal with
 * `AbortSignal.any` (two signals a call, kept until collected). Redirects are never followed.
 * The caller's abort destroys the request and rejects with the signal's reason; the time-out
 * rejects with a PostTimeoutError; a connection closed before the whole body arrived rejects with
 * the socket's error.
 */
export function httpPost(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  { timeoutMs, signal }: PostLimits,
): Promise<PostedResponse> {
  const { module, agent } = transportFor(url);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const request = module.request(url, {
      method: "POST",
      agent,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    const onAbort = () =>
      request.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    // Once it has fired, whichever error the destroyed request or response reports is the time-out.
    let timedOut: PostTimeoutError | undefined;
    const timer = setTimeout(() => {
      timedOut = new PostTimeoutError(timeoutMs);
      request.destroy(timedOut);
    }, timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: unknown) => {
      settle();
      reject(timedOut ?? error);
    };
    request.on("error", fail);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("error", fail);
      response.on("end", () => {
        if (!response.complete) {
          fail(
            Object.assign(new Error("the connection closed before the whole body arrived"), {
              code: "ECONNRESET",
            }),
          );
          return;
        }
        settle();
        const head = responseHead(response);
        resolve({ ...head, ok: head.status >= 200 && head.status < 300, text });
      });
    });
    request.end(body);
  });
}
