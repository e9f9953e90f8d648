import { setTimeout as sleep } from "node:timers/promises";
import * as z from "zod";
import { DeviceCloudError, DeviceCloudHttpError } from "./errors.js";

export const retryPolicySchema = z.strictObject({
  /** Attempts in all, the first included. */
  maxAttempts: z.number().int().min(1).max(10).default(4),
  /** The cap of the first back-off; each retry doubles it. */
  baseDelayMs: z.number().int().nonnegative().default(250),
  maxDelayMs: z.number().int().nonnegative().default(5_000),
  /** No retry starts once this much time has passed since the first attempt. */
  maxElapsedMs: z.number().int().nonnegative().default(20_000),
});
export type RetryPolicy = z.output<typeof retryPolicySchema>;
export type RetryPolicyInput = z.input<typeof retryPolicySchema>;

/** What the client says about retries; Powertools' Logger fits this shape, and so does `console`. */
export interface ClientLogger {
  warn(message: string, attributes: Record<string, unknown>): void;
}

/**
 * "Full jitter" exponential back-off: a uniform draw below min(maxDelay, base * 2^(retry-1)), so that
 * many clients retrying at once spread out. A Retry-After from the service is a floor.
 */
export function backoffDelayMs(
  policy: RetryPolicy,
  retry: number,
  random: () => number,
  floorMs = 0,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.max(floorMs, Math.floor(random() * ceiling));
}

export interface RetryContext {
  policy: RetryPolicy;
  logger?: ClientLogger;
  random: () => number;
  signal?: AbortSignal;
}

/**
 * Runs `attempt` until it succeeds, throws an error that is not retryable (a 4xx other than 429,
 * an invalid response or argument), or the attempts or time budget run out: network errors,
 * time-outs, 429 and 5xx only are retried. The last error is thrown as it is.
 */
export async function withRetries<T>(
  context: RetryContext,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<T> {
  const { policy, logger, random, signal } = context;
  const startedAt = Date.now();
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!(error instanceof DeviceCloudError) || !error.retryable || attemptNumber >= policy.maxAttempts)
        throw error;
      const floorMs = error instanceof DeviceCloudHttpError ? (error.retryAfterMs ?? 0) : 0;
      const delayMs = backoffDelayMs(policy, attemptNumber, random, floorMs);
      if (Date.now() - startedAt + delayMs > policy.maxElapsedMs) throw error;
      logger?.warn("device cloud call failed; retrying", {
        endpoint: error.source,
        attempt: attemptNumber,
        retryInMs: delayMs,
        error: error.message,
      });
      await sleep(delayMs, undefined, { signal });
    }
  }
}
