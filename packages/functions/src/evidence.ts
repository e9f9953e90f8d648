import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { collectEvidence, evidenceJobSchema } from "@fleet-alerts/core/evidence";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { handleEvidenceFailure } from "./evidence-failure.js";
import { buildEvidenceRuntime } from "./evidence-runtime.js";
import { lambdaHandler, logger } from "./observability.js";
import { cachedOnSuccess } from "./once.js";
import type { RuntimeOverrides } from "./runtime.js";
import { withSecrets } from "./secrets.js";

/**
 * The evidence function: SQS-triggered, one evidence job per message, partial batch failures. A
 * failed job comes back later and, after the queue's maxReceiveCount, goes to the DLQ.
 */
export function createEvidenceHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const getRuntime = cachedOnSuccess(() =>
    withSecrets(env).then((resolved) => buildEvidenceRuntime(resolved, options)),
  );
  const processor = new BatchProcessor(EventType.SQS);

  const collect = async (record: SQSRecord) => {
    const runtime = await getRuntime();
    const job = evidenceJobSchema.parse(JSON.parse(record.body));
    const { account, alertId, serialno, deviceid } = job;
    logger.appendKeys({ account, alertId, serialno, deviceid });
    const client = runtime.clients.get(job.account);
    if (!client) throw new Error(`evidence job for unknown account ${job.account}`);
    try {
      await collectEvidence(job, runtime.settings, { ...runtime.deps, client });
    } catch (error) {
      await handleEvidenceFailure(record, job, error as Error, runtime);
      throw error;
    }
  };

  // One record at a time: memory holds one clip's parts at most, and a job delivered twice in one
  // batch finds the first delivery's manifest. Failures are reported per record, never thrown whole.
  return lambdaHandler(async (event: SQSEvent, context: Context) => {
    // Built on the first invocation: a configuration error fails it whole, naming the variable.
    await getRuntime();
    return processPartialResponse(event, collect, processor, {
      context,
      processInParallel: false,
      throwOnFullBatchFailure: false,
    });
  });
}

export const handler = createEvidenceHandler(process.env);
