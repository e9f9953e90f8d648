import { Duration, type Stack } from "aws-cdk-lib";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { SQS_MAX_RETENTION_SECONDS, SQS_MAX_VISIBILITY_SECONDS } from "../packages/core/src/aws-limits.js";
import {
  CONFIRM_MAX_RECEIVES,
  ESCALATION_MAX_RECEIVES,
  EVIDENCE_MAX_RECEIVES,
} from "../packages/core/src/evidence/queue-policy.js";
import { ESCALATE_TIMEOUT, EVIDENCE_TIMEOUT } from "./functions.js";

export interface Queues {
  evidenceQueue: sqs.Queue;
  evidenceDlq: sqs.Queue;
  confirmQueue: sqs.Queue;
  confirmDlq: sqs.Queue;
  escalationQueue: sqs.Queue;
  escalationDlq: sqs.Queue;
}

/** The work queues of the evidence, Offline-confirmation and escalate functions, each with its DLQ. */
export function buildQueues(stack: Stack): Queues {
  const queue = (id: string, props: sqs.QueueProps = {}) =>
    new sqs.Queue(stack, id, { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, ...props });
  // Dead letters are kept as long as SQS keeps anything, for someone to look at them.
  const deadLetters = { retentionPeriod: Duration.seconds(SQS_MAX_RETENTION_SECONDS) };
  const evidenceDlq = queue("EvidenceDlq", deadLetters);
  const evidenceQueue = queue("EvidenceQueue", {
    // AWS advises six times the function's timeout, so a slow batch is never received twice at once
    // (within SQS's own ceiling).
    visibilityTimeout: Duration.seconds(
      Math.min(EVIDENCE_TIMEOUT.toSeconds() * 6, SQS_MAX_VISIBILITY_SECONDS),
    ),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: evidenceDlq, maxReceiveCount: EVIDENCE_MAX_RECEIVES },
  });
  const confirmDlq = queue("ConfirmDlq", deadLetters);
  const confirmQueue = queue("ConfirmQueue", {
    visibilityTimeout: Duration.minutes(6),
    deadLetterQueue: { queue: confirmDlq, maxReceiveCount: CONFIRM_MAX_RECEIVES },
  });
  const escalationDlq = queue("EscalationDlq", deadLetters);
  // Delayed jobs (SQS delays a message 15 minutes at most; the function sends a longer wait on as a
  // new delayed message), each checking the acknowledgement when it fires.
  const escalationQueue = queue("EscalationQueue", {
    visibilityTimeout: Duration.seconds(ESCALATE_TIMEOUT.toSeconds() * 6),
    deadLetterQueue: { queue: escalationDlq, maxReceiveCount: ESCALATION_MAX_RECEIVES },
  });
  return { evidenceQueue, evidenceDlq, confirmQueue, confirmDlq, escalationQueue, escalationDlq };
}
