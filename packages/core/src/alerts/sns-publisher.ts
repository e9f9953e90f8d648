import { setTimeout as sleep } from "node:timers/promises";
import { PublishBatchCommand, type PublishBatchRequestEntry, type SNSClient } from "@aws-sdk/client-sns";
import { SNS_MAX_BATCH_ENTRIES } from "../aws-limits.js";
import { chunked } from "../chunked.js";
import type { AlertMessage } from "./message.js";
import type { AlertPublisher, OutgoingAlert, PublishOutcome } from "./ports.js";

/** SNS allows ten entries per PublishBatch. */

/**
 * Publishes alerts to the alerts topic with PublishBatch, as `MessageStructure: "json"` so that
 * email and SMS subscribers each get their own body, with message attributes for subscription
 * filter policies. Every entry's result is checked; failed entries that are not sender faults are
 * retried (bounded), and the outcome of each alert is returned.
 */
export class SnsAlertPublisher implements AlertPublisher {
  constructor(
    private readonly sns: SNSClient,
    private readonly topicArn: string,
    private readonly retry = { attempts: 3, delayMs: 200 },
  ) {}

  /** The batches go out concurrently: a standard topic keeps no order between messages anyway. */
  async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome[]> {
    return (
      await Promise.all(chunked(alerts, SNS_MAX_BATCH_ENTRIES).map((batch) => this.#publishBatch(batch)))
    ).flat();
  }

  async #publishBatch(batch: readonly OutgoingAlert[]): Promise<PublishOutcome[]> {
    const outcomes: PublishOutcome[] = [];
    // Entry ids only need to be unique within one call: the position in this batch.
    let waiting = new Map(batch.map((alert, index) => [`a${index}`, alert]));
    for (let attempt = 1; waiting.size > 0; attempt++) {
      const response = await this.sns.send(
        new PublishBatchCommand({
          TopicArn: this.topicArn,
          PublishBatchRequestEntries: [...waiting].map(([id, alert]) => toEntry(id, alert.message)),
        }),
      );
      for (const success of response.Successful ?? []) {
        const alert = success.Id ? waiting.get(success.Id) : undefined;
        if (!alert || !success.MessageId) continue;
        outcomes.push({ alertId: alert.alertId, ok: true, messageId: success.MessageId });
        waiting.delete(success.Id as string);
      }
      const retryable = new Map<string, OutgoingAlert>();
      for (const failure of response.Failed ?? []) {
        const alert = failure.Id ? waiting.get(failure.Id) : undefined;
        if (!alert) continue;
        const reason = `${failure.Code ?? "unknown"}: ${failure.Message ?? "no message"}`;
        if (failure.SenderFault || attempt >= this.retry.attempts) {
          outcomes.push({
            alertId: alert.alertId,
            ok: false,
            permanent: failure.SenderFault === true,
            reason,
          });
        } else {
          retryable.set(failure.Id as string, alert);
        }
      }
      waiting = retryable;
      if (waiting.size > 0) await sleep(this.retry.delayMs * 2 ** (attempt - 1));
    }
    return outcomes;
  }
}

function toEntry(id: string, message: AlertMessage): PublishBatchRequestEntry {
  return {
    Id: id,
    Subject: message.subject,
    MessageStructure: "json",
    Message: JSON.stringify({ default: message.default, email: message.email, sms: message.sms }),
    MessageAttributes: message.attributes,
  };
}
