import { StringDecoder } from "node:string_decoder";
import { type ResponseHead, responseHead, transportFor } from "./http-shared.js";

export interface PostedHead extends ResponseHead {
  ok: boolean;
}

export interface PostedResponse extends PostedHead {
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
 * Takes a response's body as it arrives. `write` may throw (a body that cannot be what was asked
 * for): the request is then ended and `httpPostStreaming` rejects with what it threw.
 */
export interface BodySink {
  write(chunk: Buffer): void;
  /** The whole body has arrived. */
  end(): void;
}

/**
 * POSTs `body` and hands the response's body, chunk by chunk, to the sink that `open` makes for
 * its head: so that an answer of any size never has to be held whole. Over node:http(s) with
 * kept-alive connections. Not `fetch`: for the small JSON calls the client makes by the hundred (an
 * event page, a GPS history per device), undici's fetch cost several times the CPU per call (its
 * web streams and signals), which a backlog catch-up pays on every call; for the same reason the
 * time-out is a plain timer, not an `AbortSignal.timeout` joined to the caller's signal with
 * `AbortSignal.any` (two signals a call, kept until collected). Redirects are never followed.
 * The caller's abort destroys the request and rejects with the signal's reason; the time-out
 * rejects with a PostTimeoutError; a connection closed before the whole body arrived rejects with
 * the socket's error.
 */
export function httpPostStreaming(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  { timeoutMs, signal }: PostLimits,
  open: (head: PostedHead) => BodySink,
): Promise<PostedHead> {
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
      const head = responseHead(response);
      const posted = { ...head, ok: head.status >= 200 && head.status < 300 };
      let refused = false;
      const refuse = (error: unknown) => {
        // What the sink refused ends the exchange; the socket is not reused half-read.
        refused = true;
        fail(error);
        request.destroy();
      };
      let sink: BodySink;
      try {
        sink = open(posted);
      } catch (error) {
        refuse(error);
        return;
      }
      response.on("data", (chunk: Buffer) => {
        if (refused) return;
        try {
          sink.write(chunk);
        } catch (error) {
          refuse(error);
        }
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
        try {
          sink.end();
        } catch (error) {
          fail(error);
          return;
        }
        settle();
        resolve(posted);
      });
    });
    request.end(body);
  });
}

/** POSTs `body` and reads the whole response as text (see `httpPostStreaming`). */
export async function httpPost(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  limits: PostLimits,
): Promise<PostedResponse> {
  const text = new TextCollector();
  const head = await httpPostStreaming(url, headers, body, limits, () => text);
  return { ...head, text: text.text };
}

/** A sink that keeps the body as text, its first `maxChars` characters at most. */
export class TextCollector implements BodySink {
  readonly #decoder = new StringDecoder("utf8");
  #text = "";

  constructor(private readonly maxChars = Number.POSITIVE_INFINITY) {}

  get text(): string {
    return this.#text;
  }

  write(chunk: Buffer): void {
    if (this.#text.length < this.maxChars) this.#text += this.#decoder.write(chunk);
  }

  end(): void {
    if (this.#text.length < this.maxChars) this.#text += this.#decoder.end();
    if (this.#text.length > this.maxChars) this.#text = this.#text.slice(0, this.maxChars);
  }
}
