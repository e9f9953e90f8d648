import { displayText } from "../text/display.js";
import { ENDPOINTS, type EndpointName } from "./endpoints.js";
import {
  DeviceCloudError,
  DeviceCloudHttpError,
  DeviceCloudInvalidResponseError,
  DeviceCloudNetworkError,
  DeviceCloudTimeoutError,
} from "./errors.js";
import { type BodySink, httpPost, httpPostStreaming, PostTimeoutError, TextCollector } from "./http-post.js";
import type { ResponseHead } from "./http-shared.js";
import { parseJsonKeepingSerials } from "./json.js";
import { JsonArrayStream, JsonArrayStreamError } from "./json-stream.js";
import { type ClientLogger, type RetryPolicy, withRetries } from "./retry.js";
import { redactSecrets } from "./secret.js";

export interface TransportOptions {
  baseUrl: URL;
  /** Per attempt: from sending the request to having the whole response body. */
  timeoutMs: number;
  retry: RetryPolicy;
  logger?: ClientLogger;
  random: () => number;
  /** Values to scrub from anything the service says back before it reaches an error message. */
  secrets: readonly string[];
}

/** `base` may carry a path prefix (https://host/prefix): the endpoint path is appended to it. */
export function endpointUrl(base: URL, path: string): URL {
  const url = new URL(base);
  url.pathname = `${base.pathname.replace(/\/+$/, "")}${path}`;
  return url;
}

/**
 * POSTs a JSON body as the spec says (`Content-Type: application/json; charset=utf-8`, every
 * parameter in the body) and returns the parsed JSON. Redirects are not followed: a redirect
 * would resend the credentials in the body to wherever it points.
 */
export async function postJson(
  options: TransportOptions,
  endpoint: EndpointName,
  body: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const url = endpointUrl(options.baseUrl, ENDPOINTS[endpoint].path);
  const retryContext = retryContextOf(options, signal);
  return withRetries(retryContext, async (attempt) => {
    try {
      const response = await httpPost(url, JSON_POST_HEADERS, body, {
        timeoutMs: options.timeoutMs,
        ...(signal && { signal }),
      });
      const { text } = response;
      if (!response.ok) throw httpError(endpoint, response, text, attempt, options.secrets);
      return parseJsonBody(endpoint, response, text);
    } catch (error) {
      throw attemptFailure(error, endpoint, attempt, options, signal);
    }
  });
}

/**
 * POSTs as `postJson` does, for an answer that must be a JSON array of any length: its elements go,
 * one by one as they arrive, to the handler `open` makes for each attempt (a retry starts over
 * with a fresh one, so nothing is handed twice to the same one). Only one element is held at a
 * time. Resolves once the whole array has been read.
 */
export async function postJsonArray(
  options: TransportOptions,
  endpoint: EndpointName,
  body: string,
  open: () => (element: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const url = endpointUrl(options.baseUrl, ENDPOINTS[endpoint].path);
  const retryContext = retryContextOf(options, signal);
  await withRetries(retryContext, async (attempt) => {
    let errorText: TextCollector | undefined;
    let contentType = "none";
    try {
      const head = await httpPostStreaming(
        url,
        JSON_POST_HEADERS,
        body,
        { timeoutMs: options.timeoutMs, ...(signal && { signal }) },
        (response): BodySink => {
          if (!response.ok) {
            errorText = new TextCollector(MAX_ERROR_BODY_CHARS);
            return errorText;
          }
          contentType = response.headers.get("content-type") ?? "none";
          if (isHtml(contentType))
            throw new JsonArrayStreamError("html", "expected JSON but got an HTML page");
          return new JsonArrayStream(open());
        },
      );
      if (errorText) throw httpError(endpoint, head, errorText.text, attempt, options.secrets);
    } catch (error) {
      throw attemptFailure(
        arrayStreamError(endpoint, error, contentType),
        endpoint,
        attempt,
        options,
        signal,
      );
    }
  });
}

// The spec's content type for every POST (every parameter in the JSON body).
const JSON_POST_HEADERS = { "content-type": "application/json; charset=utf-8", accept: "application/json" };

function retryContextOf(options: TransportOptions, signal: AbortSignal | undefined) {
  return { policy: options.retry, logger: options.logger, random: options.random, signal };
}

/** What an attempt threw, as the typed error the retries judge (see `toDeviceCloudError`). */
function attemptFailure(
  error: unknown,
  endpoint: EndpointName,
  attempt: number,
  options: TransportOptions,
  signal: AbortSignal | undefined,
): unknown {
  return toDeviceCloudError(error, {
    endpoint,
    attempt,
    timeoutMs: options.timeoutMs,
    timedOut: error instanceof PostTimeoutError,
    signal,
  });
}

// A proxy or gateway error page sent with status 200 is the classic way a "successful" call lies.
function isHtml(contentType: string): boolean {
  return /text\/html/i.test(contentType);
}

// An error answer is read only as far as its explanation can reach a message.
const MAX_ERROR_BODY_CHARS = 64 * 1024;

/** What the JSON stream refused, said as the whole-body parse says it (never quoting the body). */
function arrayStreamError(endpoint: EndpointName, error: unknown, contentType: string): unknown {
  if (!(error instanceof JsonArrayStreamError)) return error;
  return new DeviceCloudInvalidResponseError(endpoint, `${error.message} (content-type ${contentType})`);
}

function parseJsonBody(endpoint: EndpointName, response: ResponseHead, text: string): unknown {
  const contentType = response.headers.get("content-type") ?? "none";
  if (isHtml(contentType) || /^\s*</.test(text)) {
    throw new DeviceCloudInvalidResponseError(
      endpoint,
      `expected JSON but got an HTML page (${contentType})`,
    );
  }
  try {
    return parseJsonKeepingSerials(text);
  } catch {
    // The parser's own message quotes the body, which may hold anything: say only what and how long.
    throw new DeviceCloudInvalidResponseError(
      endpoint,
      `body is not valid JSON (${Buffer.byteLength(text)} bytes, content-type ${contentType})`,
    );
  }
}

const MAX_SERVICE_MESSAGE_LENGTH = 200;

/** An HTTP error with the service's own explanation when it gave one in JSON, redacted and cut short. */
export function httpError(
  endpoint: EndpointName,
  response: ResponseHead,
  text: string,
  attempt: number,
  secrets: readonly string[],
): DeviceCloudHttpError {
  return new DeviceCloudHttpError(
    endpoint,
    response.status,
    attempt,
    serviceMessage(text, secrets),
    retryAfterMs(response.headers.get("retry-after")),
  );
}

function serviceMessage(text: string, secrets: readonly string[]): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not JSON (an HTML page, say): nothing worth quoting
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { message, error } = parsed as Record<string, unknown>;
  const said = [message, error].find(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
  if (said === undefined) return undefined;
  // The service's words reach errors, logs and the CLI: on one line, without controls, cut between graphemes.
  return displayText(redactSecrets(said, secrets), MAX_SERVICE_MESSAGE_LENGTH);
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

interface FailureContext {
  endpoint: EndpointName;
  attempt: number;
  timeoutMs: number;
  /** Whether this attempt's own time-out fired. */
  timedOut: boolean;
  signal?: AbortSignal;
}

/**
 * Classifies what a request or a body read threw. The caller's own abort is passed through as it is
 * (it is not a failure of the service and must not be retried).
 */
export function toDeviceCloudError(error: unknown, context: FailureContext): unknown {
  if (error instanceof DeviceCloudError) return error;
  if (context.signal?.aborted) return context.signal.reason;
  if (context.timedOut)
    return new DeviceCloudTimeoutError(context.endpoint, context.timeoutMs, context.attempt);
  return new DeviceCloudNetworkError(context.endpoint, networkErrorCode(error), context.attempt);
}

/** The code of a network failure (ECONNRESET, UND_ERR_SOCKET...), from the error or its cause. */
function networkErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}
