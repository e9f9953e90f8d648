import { type Check, fail, pass, settle } from "./check.js";
import type { QueueDepths, QueueRef } from "./ports.js";

/**
 * Each dead-letter queue is empty: a message there is a job (evidence, Offline check, escalation,
 * webhook) that failed every attempt and waits for an operator.
 */
export function checkDeadLetters(queue: QueueRef, depths: QueueDepths): Promise<Check[]> {
  const name = `dead letters: ${queue.name}`;
  return settle(
    name,
    async () => {
      const { arn, messages } = await depths.depth(queue.url);
      if (messages === 0) return pass(name, "empty");
      return fail(
        name,
        `${messages} message${messages === 1 ? "" : "s"} waiting`,
        "read why the jobs failed in the consuming function's logs and fix the cause, then send them back to " +
          `their queue: aws sqs start-message-move-task --source-arn ${arn}`,
      );
    },
    "check that this shell may read the stage's queues (AWS credentials and region), then run doctor again",
  );
}
