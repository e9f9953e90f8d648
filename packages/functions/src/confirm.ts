import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { confirmOffline, offlineCheckJobSchema } from "@fleet-alerts/core/offline";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { lambdaHandler, logger } from "./observability.js";
import { cachedOnSuccess } from "./once.js";
import { buildRuntime, type RuntimeOverrides } from "./runtime.js";
import { withSecrets } from "./secrets.js";

/**
 * The Offline confirmation: an SQS-triggered function that receives the delayed checks the poller
 * schedules. Partial batch failures: a failed message alone is retried (and ends in the DLQ).
 */
export function createConfirmHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  const getRuntime = cachedOnSuccess(() =>
    withSecrets(env).then((resolved) => buildRuntime(resolved, options)),
  );
  const processor = new BatchProcessor(EventType.SQS);

  const confirmRecord = async (record: SQSRecord) => {
    const { pollers } = await getRuntime();
    const job = offlineCheckJobSchema.parse(JSON.parse(record.body));
    logger.appendKeys({
      account: job.account,
      serialno: job.serialno,
      deviceid: job.deviceid,
      rule: job.ruleId,
    });
    const poller = pollers.find((candidate) => candidate.settings.account === job.account);
    if (!poller) throw new Error(`offline check for unknown account ${job.account}`);
    const outcome = await confirmOffline(job, poller.settings, poller.deps);
    (options.logger ?? logger).info("offline check handled", { outcome });
  };

  return lambdaHandler(async (event: SQSEvent, context: Context) => {
    // Built on the first invocation: a configuration error fails it whole, naming the variable.
    await getRuntime();
    return processPartialResponse(event, confirmRecord, processor, {
      context,
      throwOnFullBatchFailure: false,
    });
  });
}

export const handler = createConfirmHandler(process.env);
