import { setTimeout as sleep } from "node:timers/promises";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { SQS_MAX_BATCH_ENTRIES, SQS_MAX_DELAY_SECONDS, SQS_MAX_MESSAGE_BYTES } from "../aws-limits.js";
import { chunkedByBytes } from "../chunked.js";
import type { JobQueue, QueueMessage, RefusedMessage } from "./ports.js";

/** Raised when SQS keeps failing some messages for a reason that may pass: nothing may count them as sent. */
export class QueueSendError extends Error {
  constructor(
    readonly queueUrl: string,
    readonly failures: string[],
  ) {
    super(`SQS did not accept ${failures.length} message(s): ${failures.slice(0, 3).join("; ")}`);
    this.name = "QueueSendError";
  }
}

interface Numbered {
  index: number;
  message: QueueMessage;
  bytes: number;
}

/**
 * Sends messages with SendMessageBatch, checks each entry's result, retries the failed ones that
 * are not sender faults (bounded) and throws if any is still not accepted. A sender fault (content
 * SQS refuses, a message too large) is final: that message is returned as refused and the others
 * go. Batches hold ten messages and SQS's payload limit at most, so one large message cannot make
 * SQS refuse a whole batch; a message over the limit alone is refused without asking.
 */
export class SqsSender implements JobQueue {
  constructor(
    private readonly sqs: SQSClient,
    readonly queueUrl: string,
    private readonly retry = { attempts: 3, delayMs: 200 },
    /**
     * Clock seconds per real second: business-clock delays are divided by it (the local mode's clock
     * runs fast); wall-clock ones are not.
     */
    private readonly timeScale = 1,
  ) {}

  async send(messages: readonly QueueMessage[]): Promise<RefusedMessage[]> {
    const refused: RefusedMessage[] = [];
    const sendable: Numbered[] = [];
    for (const [index, message] of messages.entries()) {
      const bytes = Buffer.byteLength(message.body);
      if (bytes > SQS_MAX_MESSAGE_BYTES)
        refused.push({ index, reason: `message of ${bytes} bytes, over SQS's ${SQS_MAX_MESSAGE_BYTES}` });
      else sendable.push({ index, message, bytes });
    }
    for (const batch of chunkedByBytes(sendable, SQS_MAX_BATCH_ENTRIES, SQS_MAX_MESSAGE_BYTES))
      refused.push(...(await this.#sendBatch(batch)));
    return refused.sort((a, b) => a.index - b.index);
  }

  async #sendBatch(batch: readonly Numbered[]): Promise<RefusedMessage[]> {
    const refused: RefusedMessage[] = [];
    const waiting = new Map(batch.map((numbered) => [`m${numbered.index}`, numbered]));
    for (let attempt = 1; waiting.size > 0; attempt++) {
      const response = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: [...waiting].map(([id, { message }]) => ({
            Id: id,
            MessageBody: message.body,
            ...(message.delaySeconds !== undefined && {
              DelaySeconds: Math.min(
                SQS_MAX_DELAY_SECONDS,
                Math.max(
                  0,
                  Math.ceil(message.delaySeconds / (message.delayOnWallClock ? 1 : this.timeScale)),
                ),
              ),
            }),
          })),
        }),
      );
      for (const success of response.Successful ?? []) if (success.Id) waiting.delete(success.Id);
      const failed = response.Failed ?? [];
      for (const failure of failed.filter((entry) => entry.SenderFault)) {
        const numbered = waiting.get(failure.Id ?? "");
        if (!numbered) continue;
        refused.push({ index: numbered.index, reason: `${failure.Code}: ${failure.Message}` });
        waiting.delete(failure.Id as string);
      }
      if (waiting.size > 0 && attempt >= this.retry.attempts) {
        throw new QueueSendError(
          this.queueUrl,
          failed.filter((entry) => !entry.SenderFault).map((entry) => `${entry.Code}: ${entry.Message}`),
        );
      }
      if (waiting.size > 0) await sleep(this.retry.delayMs * 2 ** (attempt - 1));
    }
    return refused;
  }
}
