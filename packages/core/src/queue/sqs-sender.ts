import { setTimeout as sleep } from "node:timers/promises";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { SQS_MAX_BATCH_ENTRIES, SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { chunked } from "../chunked.js";
import type { JobQueue, QueueMessage } from "./ports.js";

/** Raised when SQS keeps refusing some messages: the caller must not act as if they were sent. */
export class QueueSendError extends Error {
  constructor(
    readonly queueUrl: string,
    readonly failures: string[],
  ) {
    super(`SQS refused ${failures.length} message(s): ${failures.slice(0, 3).join("; ")}`);
    this.name = "QueueSendError";
  }
}

/**
 * Sends messages with SendMessageBatch (ten a call), checks each entry's result and retries the
 * failed ones that are not sender faults; throws if any message is still not accepted.
 */
export class SqsSender implements JobQueue {
  constructor(
    private readonly sqs: SQSClient,
    readonly queueUrl: string,
    private readonly retry = { attempts: 3, delayMs: 200 },
    /** Clock seconds per real second: delays are divided by it (the local mode's clock runs fast). */
    private readonly timeScale = 1,
  ) {}

  async send(messages: readonly QueueMessage[]): Promise<void> {
    for (const batch of chunked(messages, SQS_MAX_BATCH_ENTRIES)) await this.#sendBatch(batch);
  }

  async #sendBatch(batch: readonly QueueMessage[]): Promise<void> {
    const waiting = new Map(batch.map((message, index) => [`m${index}`, message]));
    for (let attempt = 1; waiting.size > 0; attempt++) {
      const response = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: [...waiting].map(([id, message]) => ({
            Id: id,
            MessageBody: message.body,
            ...(message.delaySeconds !== undefined && {
              DelaySeconds: Math.min(
                SQS_MAX_DELAY_SECONDS,
                Math.max(0, Math.ceil(message.delaySeconds / this.timeScale)),
              ),
            }),
          })),
        }),
      );
      for (const success of response.Successful ?? []) if (success.Id) waiting.delete(success.Id);
      const failed = response.Failed ?? [];
      const permanent = failed.filter((failure) => failure.SenderFault);
      if (permanent.length > 0 || (failed.length > 0 && attempt >= this.retry.attempts)) {
        throw new QueueSendError(
          this.queueUrl,
          failed.map((failure) => `${failure.Code}: ${failure.Message}`),
        );
      }
      if (waiting.size > 0) await sleep(this.retry.delayMs * 2 ** (attempt - 1));
    }
  }
}
