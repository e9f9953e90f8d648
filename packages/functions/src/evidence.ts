import {
  claimPackJobSchema,
  collectEvidence,
  evidenceJobSchema,
  isClaimPackMessage,
} from "@fleet-alerts/core/evidence";
import { parseAlertId } from "@fleet-alerts/core/share";
import { buildClaimPackZip } from "./claim-pack/build-zip.js";
import { handleEvidenceFailure } from "./evidence-failure.js";
import { evidenceRuntimes } from "./evidence-runtime.js";
import { logger } from "./observability.js";
import type { RuntimeOverrides } from "./runtime.js";
import { sqsRecordHandler } from "./sqs-handler.js";

/**
 * The evidence function: one evidence job per message. A failed job comes back later, after a
 * growing delay, and after the queue's maxReceiveCount goes to the DLQ (evidence-failure.ts).
 * The same queue carries claim-pack jobs (a stored bag zipped for the incident page's download): a
 * failed one simply comes back, as SQS redelivers it, and then goes to the DLQ.
 */
export function createEvidenceHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  return sqsRecordHandler(
    async () => evidenceRuntimes(env, options),
    async (record, runtimeFor) => {
      const message: unknown = JSON.parse(record.body);
      if (isClaimPackMessage(message)) {
        const pack = claimPackJobSchema.parse(message);
        logger.appendKeys({ alertId: pack.alertId });
        const runtime = await runtimeFor(parseAlertId(pack.alertId).account);
        return buildClaimPackZip(pack, { ...runtime.claimPacks, observer: runtime.deps.observer });
      }
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
