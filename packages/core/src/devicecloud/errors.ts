import type * as z from "zod";
import { describeEndpoint, type EndpointName } from "./endpoints.js";

/** Where a problem was found: one of the service's operations, or the client's own configuration. */
export type ErrorSource = EndpointName | "configuration";

/** A validation problem, by path and message only: zod issues carry no input values, so no secret. */
export interface ValidationIssue {
  path: string;
  message: string;
}

export function toValidationIssues(issues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.length === 0 ? "(root)" : issue.path.map(String).join("."),
    message: issue.message,
  }));
}

function formatIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : "";
  return `${shown.join("; ")}${more}`;
}

function describeSource(source: ErrorSource): string {
  return source === "configuration"
    ? "device cloud client configuration"
    : `device cloud ${describeEndpoint(source)}`;
}

/**
 * Base of every error the client throws. Messages name the operation and never contain the
 * password, its hash, or a playback URL with credentials.
 */
export abstract class DeviceCloudError extends Error {
  abstract readonly kind: string;
  /** Whether the same call may succeed if made again later (the poller's next run, say). */
  abstract readonly retryable: boolean;

  constructor(
    readonly source: ErrorSource,
    detail: string,
  ) {
    super(`${describeSource(source)}: ${detail}`);
    this.name = new.target.name;
  }
}

export class DeviceCloudHttpError extends DeviceCloudError {
  readonly kind = "http-status";
  readonly retryable: boolean;

  constructor(
    source: EndpointName,
    readonly status: number,
    readonly attempts: number,
    /** The service's own short explanation, redacted and cut short, when it sent one. */
    readonly serviceMessage?: string,
    /** How long the service asked us to wait (Retry-After), when it said. */
    readonly retryAfterMs?: number,
  ) {
    const said = serviceMessage ? ` (${serviceMessage})` : "";
    super(source, `HTTP ${status}${said} after ${attempts} attempt${attempts === 1 ? "" : "s"}`);
    this.retryable = status === 429 || status >= 500;
  }
}

export class DeviceCloudTimeoutError extends DeviceCloudError {
  readonly kind = "timeout";
  readonly retryable = true;

  constructor(
    source: EndpointName,
    readonly timeoutMs: number,
    readonly attempts: number,
    /** `response`: no complete answer in time; `idle`: a streaming body stalled. */
    readonly phase: "response" | "idle" = "response",
  ) {
    const what = phase === "idle" ? "no data received for" : "no response within";
    super(source, `${what} ${timeoutMs} ms (attempt ${attempts})`);
  }
}

export class DeviceCloudNetworkError extends DeviceCloudError {
  readonly kind = "network";
  readonly retryable = true;

  constructor(
    source: EndpointName,
    /** The system or undici error code (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET...), if any. */
    readonly code: string | undefined,
    readonly attempts: number,
  ) {
    super(
      source,
      `network error${code ? ` ${code}` : ""} after ${attempts} attempt${attempts === 1 ? "" : "s"}`,
    );
  }
}

export class DeviceCloudInvalidResponseError extends DeviceCloudError {
  readonly kind = "invalid-response";
  readonly retryable = false;

  constructor(
    source: EndpointName,
    detail: string,
    readonly issues: readonly ValidationIssue[] = [],
  ) {
    super(source, issues.length > 0 ? `${detail}: ${formatIssues(issues)}` : detail);
  }
}

export class DeviceCloudInvalidArgumentError extends DeviceCloudError {
  readonly kind = "invalid-argument";
  readonly retryable = false;

  constructor(
    source: ErrorSource,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(source, `invalid argument: ${formatIssues(issues)}`);
  }
}

/** The playback answered, but its body is not an MP4 (an HTML or JSON error page, say). */
export class PlaybackNotMp4Error extends DeviceCloudError {
  readonly kind = "not-mp4";
  readonly retryable = false;

  constructor(readonly detectedAs: "html" | "json" | "empty" | "unknown") {
    super("playback", `response body is not an MP4 (no ftyp box; it looks like ${detectedAs})`);
  }
}

/** The playback stream ended before the length the service announced. */
export class PlaybackTruncatedError extends DeviceCloudError {
  readonly kind = "truncated";
  readonly retryable = true;

  constructor(
    readonly expectedBytes: number | undefined,
    readonly receivedBytes: number,
  ) {
    const expected = expectedBytes === undefined ? "" : ` of ${expectedBytes}`;
    super("playback", `stream ended after ${receivedBytes}${expected} bytes`);
  }
}
