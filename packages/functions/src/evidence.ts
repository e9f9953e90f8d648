import {
  collectEvidence,
  evidenceJobSchema,
  isClaimPackMessage,
  isParkedSweepMessage,
} from "@fleet-alerts/core/evidence";
import { buildRequestedClaimPack } from "./claim-pack/requested.js";
import { handleEvidenceFailure } from "./evidence-failure.js";
import { evidenceRuntimes } from "./evidence-runtime.js";
import { sweepEveryAccount } from "./evidence-sweep.js";
import { logger } from "./observability.js";
import type { RuntimeOverrides } from "./runtime.js";
import { sqsRecordHandler } from "./sqs-handler.js";

/**
 * The evidence function: one evidence job per message. A failed job comes back later, after a
 * growing delay, and after the queue's maxReceiveCount goes to the DLQ (evidence-failure.ts).
 * The same queue carries claim-pack jobs (a stored bag zipped for the incident page's download) and
 * the parked-evidence sweep: a failed one simply comes back, as SQS redelivers it, then the DLQ.
 */
export function createEvidenceHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  return sqsRecordHandler(
    async () => evidenceRuntimes(env, options),
    async (record, runtimeFor) => {
      const message: unknown = JSON.parse(record.body);
      if (isClaimPackMessage(message)) return buildRequestedClaimPack(message, runtimeFor);
      if (isParkedSweepMessage(message)) return sweepEveryAccount(env, runtimeFor);
      const job = evidenceJobSchema.parse(message);
      const { account, alertId, serialno, deviceid } = job;
      logger.appendKeys({ account, alertId, serialno, deviceid });
      const runtime = await runtimeFor(account);
      const cloud = runtime.accounts.get(job.account);
      if (!cloud) throw new Error(`evidence job for unknown account ${job.account}`);
      try {
        await collectEvidence(
          job,
          { ...runtime.settings, track: cloud.track },
          { ...runtime.deps, client: cloud.client },
        );
      } catch (error) {
        await handleEvidenceFailure(record, job, error as Error, runtime);
        throw error;
      }
    },
    // One record at a time: memory holds one clip's parts at most, and a job delivered twice in
    // one batch finds the first delivery's manifest.
    { inParallel: false },
  );
}

export const handler = createEvidenceHandler(process.env);
