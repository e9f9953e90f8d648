import type { TsaEndpoint } from "./tsa-url.js";

/** A TimeStampResp is a few kilobytes; a TSA sending more is not answering a query. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export type PostOutcome = { ok: true; body: Uint8Array; contentType: string } | { ok: false; reason: string };

/**
 * POSTs a DER TimeStampReq and reads the whole answer within `timeoutMs` (headers and body alike).
 * Never throws; reasons name the endpoint only as `endpoint.shown`.
 */
export async function postQuery(
  endpoint: TsaEndpoint,
  query: Uint8Array,
  timeoutMs: number,
  callerSignal?: AbortSignal,
): Promise<PostOutcome> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
  try {
    const response = await fetch(endpoint.url, {
      method: "POST",
      headers: {
        "content-type": "application/timestamp-query",
        accept: "application/timestamp-reply",
        ...(endpoint.authorization ? { authorization: endpoint.authorization } : {}),
      },
      body: query,
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, reason: `the TSA at ${endpoint.shown} answered HTTP ${response.status}` };
    }
    const body = await readLimited(response);
    if (!body) {
      return {
        ok: false,
        reason: `the TSA at ${endpoint.shown} answered more than ${MAX_RESPONSE_BYTES} bytes`,
      };
    }
    return { ok: true, body, contentType: response.headers.get("content-type") ?? "" };
  } catch (error) {
    if (timeout.aborted) {
      return { ok: false, reason: `the TSA at ${endpoint.shown} did not answer within ${timeoutMs} ms` };
    }
    if (callerSignal?.aborted)
      return { ok: false, reason: `the request to the TSA at ${endpoint.shown} was aborted` };
    return { ok: false, reason: `the TSA at ${endpoint.shown} could not be reached: ${networkCause(error)}` };
  }
}

/** The body, or undefined once it passes MAX_RESPONSE_BYTES (the rest is not read). */
async function readLimited(response: Response): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body) {
    length += chunk.length;
    // Leaving the loop cancels the stream: the rest is never downloaded.
    if (length > MAX_RESPONSE_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** fetch says only "fetch failed"; the system error (ECONNREFUSED, ENOTFOUND, ...) is its cause. */
function networkCause(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string")
    return cause.code;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
