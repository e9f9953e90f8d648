import { createHash } from "node:crypto";
import type { TimestampFacts } from "./facts.js";
import { postQuery } from "./post-query.js";
import { timestampQuery } from "./query.js";
import { type TsaEndpoint, tsaEndpoint } from "./tsa-url.js";
import { inspectTimestampResponse } from "./verify.js";

export interface TsaSettings {
  url: string;
  timeoutMs: number;
  /** optional TSA policy OID */
  policy?: string;
}

export type TimestampOutcome =
  | { ok: true; response: Uint8Array; facts: TimestampFacts }
  | { ok: false; reason: string };

const EXPECTED_CONTENT_TYPE = "application/timestamp-reply";

/**
 * Asks the TSA for a token over SHA-256(stampedData) and accepts only one that answers this query:
 * granted, nonce echoed, imprint as asked, signature verified. Never throws: HTTP errors, time-outs,
 * malformed or rejected answers become { ok: false, reason } (the caller retries later), and no
 * reason shows the URL's credentials or query.
 */
export async function requestTimestamp(
  stampedData: Uint8Array,
  settings: TsaSettings,
  options: { signal?: AbortSignal } = {},
): Promise<TimestampOutcome> {
  const endpoint = tsaEndpoint(settings.url);
  if ("problem" in endpoint) return { ok: false, reason: endpoint.problem };
  try {
    const outcome = await stamp(endpoint, stampedData, settings, options.signal);
    return outcome.ok ? outcome : { ok: false, reason: endpoint.scrub(outcome.reason) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: endpoint.scrub(`time-stamping at ${endpoint.shown} failed: ${detail}`) };
  }
}

async function stamp(
  endpoint: TsaEndpoint,
  stampedData: Uint8Array,
  settings: TsaSettings,
  signal: AbortSignal | undefined,
): Promise<TimestampOutcome> {
  const query = timestampQuery(createHash("sha256").update(stampedData).digest(), settings.policy);
  const answer = await postQuery(endpoint, query.der, settings.timeoutMs, signal);
  if (!answer.ok) return answer;
  const { token, facts, problems } = await inspectTimestampResponse(answer.body, stampedData);
  if (token && token.tstInfo.nonce?.toBigInt() !== query.nonce) {
    problems.push("the token does not echo the query's nonce (an answer to another query)");
  }
  if (token && settings.policy && token.tstInfo.policy !== settings.policy) {
    problems.push(`the token is under policy ${token.tstInfo.policy}, not the requested ${settings.policy}`);
  }
  if (!facts || problems.length > 0) {
    const contentType = answer.contentType.startsWith(EXPECTED_CONTENT_TYPE)
      ? ""
      : ` (content type "${answer.contentType.slice(0, 100)}")`;
    return {
      ok: false,
      reason: `the answer of the TSA at ${endpoint.shown} is not usable${contentType}: ${problems.join("; ")}`,
    };
  }
  return { ok: true, response: answer.body, facts };
}
