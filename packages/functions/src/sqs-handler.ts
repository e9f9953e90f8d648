import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import type { Context, SQSEvent, SQSRecord } from "aws-lambda";
import { lambdaHandler } from "./observability.js";
import { cachedOnSuccess } from "./once.js";

/**
 * An SQS-triggered handler with partial batch failures: a failed record alone comes back (and, after
 * the queue's maxReceiveCount, goes to its DLQ); the others are done. The runtime is built on the
 * first invocation and kept: a configuration error fails that invocation whole, naming the variable.
 */
export function sqsRecordHandler<Runtime>(
  buildRuntime: () => Promise<Runtime>,
  handleRecord: (record: SQSRecord, runtime: Runtime) => Promise<void>,
  { inParallel }: { inParallel: boolean },
) {
  const getRuntime = cachedOnSuccess(buildRuntime);
  const processor = new BatchProcessor(EventType.SQS);
  return lambdaHandler(async (event: SQSEvent, context: Context) => {
    const runtime = await getRuntime();
    return processPartialResponse(event, (record: SQSRecord) => handleRecord(record, runtime), processor, {
      context,
      processInParallel: inParallel,
      throwOnFullBatchFailure: false,
    });
  });
}
