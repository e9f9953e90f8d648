import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { awsJson } from "../aws-text.js";
import type { Observer } from "../observer.js";
import { type JobQueue, sendEvery } from "../queue/ports.js";
import { BAG_FILES } from "./bag/bag-layout.js";
import { type EvidenceJob, jobIds } from "./job.js";
import type { EvidenceSink } from "./ports.js";
import { renderTimestampPage } from "./report/timestamp-page.js";
import type { TimestampState } from "./timestamp/facts.js";
import type { TsaSettings } from "./timestamp/index.js";

/**
 * Asks after a failed request: 1, 2, 4, 8 then 15 minutes (SQS's longest delay) apart, eight times
 * in all, about 75 minutes: a TSA that is down longer than that is an outage for ops to see, and a
 * token hours after the bag proves less than one minutes after it.
 */
export const TIMESTAMP_MAX_ATTEMPTS = 8;
const FIRST_RETRY_SECONDS = 60;

export type TimestampOutcomeKind = "off" | "already" | "stamped" | "pending" | "unavailable";

export interface TimestampDependencies {
  store: Pick<EvidenceSink, "putObject" | "readObject">;
  requeue: JobQueue;
  observer: Observer;
  now: () => number;
}

/**
 * The RFC 3161 token over a bag's tag manifest, stored beside it with `timestamp.html` saying what
 * it is. Optional per stage (`tsa` undefined: nothing to do). A TSA that fails never blocks the
 * bag: the page says the token is pending and the job comes back later, until the attempts run out
 * and the page says why there is none. A token already stored is kept (a replay asks for none).
 */
export async function stampClaimPack(
  job: EvidenceJob,
  prefix: string,
  tagManifest: Uint8Array,
  tsa: TsaSettings | undefined,
  deps: TimestampDependencies,
): Promise<TimestampOutcomeKind> {
  if (!tsa) return "off";
  const tokenKey = `${prefix}${BAG_FILES.timestampToken}`;
  // The page is written before the token it describes: a stored token means its page is there
  // too, and a replay of a stamped bag changes nothing (each rewrite would be one more locked version).
  if (await deps.store.readObject(tokenKey)) return "already";
  // Loaded on use: pkijs and asn1js are a third of the function's bundle and 13 MiB of its memory,
  // which a stage without a TSA never needs (bundles are split: infra/functions.ts).
  const { requestTimestamp } = await import("./timestamp/index.js");
  const ids = jobIds(job);
  const outcome = await requestTimestamp(tagManifest, tsa);
  if (outcome.ok) {
    // A crash between the two leaves a page without its token: the job comes back, asks for a new
    // token and writes both again.
    await putPage(prefix, { status: "stamped", facts: outcome.facts }, deps);
    await deps.store.putObject(tokenKey, outcome.response, "application/timestamp-reply");
    deps.observer.observe({
      type: "evidence-timestamped",
      ...ids,
      genTime: outcome.facts.genTime,
      tsa: outcome.facts.tsaName,
    });
    return "stamped";
  }
  const attempt = job.timestampAttempt + 1;
  const final = attempt >= TIMESTAMP_MAX_ATTEMPTS;
  deps.observer.observe({
    type: "evidence-timestamp-failed",
    ...ids,
    reason: outcome.reason,
    attempt,
    final,
  });
  if (final) {
    await putPage(
      prefix,
      {
        status: "unavailable",
        reason: `the Time-Stamp Authority failed ${attempt} times; last: ${outcome.reason}`,
      },
      deps,
    );
    return "unavailable";
  }
  const delaySeconds = Math.min(SQS_MAX_DELAY_SECONDS, FIRST_RETRY_SECONDS * 2 ** job.timestampAttempt);
  await putPage(
    prefix,
    {
      status: "pending",
      reason: outcome.reason,
      nextAttemptAt: new Date(deps.now() + delaySeconds * 1000).toISOString(),
    },
    deps,
  );
  await sendEvery(deps.requeue, [{ body: awsJson({ ...job, timestampAttempt: attempt }), delaySeconds }]);
  return "pending";
}

async function putPage(prefix: string, state: TimestampState, deps: Pick<TimestampDependencies, "store">) {
  await deps.store.putObject(
    `${prefix}${BAG_FILES.timestampPage}`,
    renderTimestampPage(state),
    "text/html; charset=utf-8",
  );
}
