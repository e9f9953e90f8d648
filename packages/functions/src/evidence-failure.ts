import { ChangeMessageVisibilityCommand } from "@aws-sdk/client-sqs";
import { SQS_MAX_VISIBILITY_SECONDS } from "@fleet-alerts/core/aws-limits";
import { alertOf, type EvidenceJob, jobIds } from "@fleet-alerts/core/evidence";
import type { SQSRecord } from "aws-lambda";
import type { EvidenceRuntime } from "./evidence-runtime.js";

/**
 * A failed evidence job: reported, and brought back after a growing delay (its visibility is
 * extended: 30 s, 60 s, 120 s...). On the queue's last receive, before SQS moves it to the DLQ, its
 * alert record is marked `failed` with the reason.
 */
export async function handleEvidenceFailure(
  record: SQSRecord,
  job: EvidenceJob,
  error: Error,
  { config, deps, alerts, sqs }: EvidenceRuntime,
): Promise<void> {
  const receives = Number(record.attributes.ApproximateReceiveCount ?? "1");
  const final = receives >= config.EVIDENCE_MAX_RECEIVES;
  deps.observer.observe({
    type: "evidence-failed",
    ...jobIds(job),
    reason: error.message,
    receives,
    final,
  });
  if (final)
    await alerts.setEvidence(alertOf(job), { status: "failed", error: error.message }).catch(() => undefined);
  const backoff = Math.min(
    SQS_MAX_VISIBILITY_SECONDS,
    config.EVIDENCE_FAILURE_BACKOFF_SECONDS * 2 ** (receives - 1),
  );
  await sqs
    .send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: config.EVIDENCE_QUEUE_URL,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: backoff,
      }),
    )
    .catch(() => undefined); // the default visibility timeout applies instead
}
