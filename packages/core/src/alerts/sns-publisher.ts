import { setTimeout as sleep } from "node:timers/promises";
import { PublishBatchCommand, type PublishBatchRequestEntry, type SNSClient } from "@aws-sdk/client-sns";
import { SNS_MAX_BATCH_ENTRIES } from "../aws-limits.js";
import { chunked } from "../chunked.js";
import type { AlertPublisher, OutgoingAlert, PublishOutcome } from "./ports.js";
import { stringAttributes } from "./render/attributes.js";

/** One message of an alert: to one recipient, or (no `to`) to every subscriber. */
interface Entry {
  alert: OutgoingAlert;
  to?: string;
}

type EntryOutcome = { ok: true; messageId: string } | { ok: false; permanent: boolean; reason: string };

/**
 * Publishes alerts to a topic with PublishBatch, as `MessageStructure: "json"` so that email and
 * SMS subscribers each get their own body, with message attributes for subscription filter
 * policies. An alert with recipients goes out as one message per recipient, with its id as the
 * `to` attribute (docs/ARCHITECTURE.md, Routing). Every entry's result is checked; failed entries
 * that are not sender faults are retried (bounded); an alert succeeds when all its entries did.
 */
export class SnsAlertPublisher implements AlertPublisher {
  constructor(
    private readonly sns: SNSClient,
    private readonly topicArn: string,
    private readonly retry = { attempts: 3, delayMs: 200 },
  ) {}

  /** The batches go out concurrently: a standard topic keeps no order between messages anyway. */
  async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome[]> {
    const entries: Entry[] = alerts.flatMap((alert) =>
      alert.to === undefined ? [{ alert }] : alert.to.map((to) => ({ alert, to })),
    );
    const settled = (
      await Promise.all(chunked(entries, SNS_MAX_BATCH_ENTRIES).map((batch) => this.#publishBatch(batch)))
    ).flat();
    return alerts.map((alert) =>
      outcomeOf(
        alert,
        settled.filter(([entry]) => entry.alert === alert),
      ),
    );
  }

  async #publishBatch(batch: readonly Entry[]): Promise<[Entry, EntryOutcome][]> {
    const outcomes: [Entry, EntryOutcome][] = [];
    // Entry ids only need to be unique within one call: the position in this batch.
    let waiting = new Map(batch.map((entry, index) => [`a${index}`, entry]));
    for (let attempt = 1; waiting.size > 0; attempt++) {
      const response = await this.sns.send(
        new PublishBatchCommand({
          TopicArn: this.topicArn,
          PublishBatchRequestEntries: [...waiting].map(([id, entry]) => toEntry(id, entry)),
        }),
      );
      for (const success of response.Successful ?? []) {
        const entry = success.Id ? waiting.get(success.Id) : undefined;
        if (!entry || !success.MessageId) continue;
        outcomes.push([entry, { ok: true, messageId: success.MessageId }]);
        waiting.delete(success.Id as string);
      }
      const retryable = new Map<string, Entry>();
      for (const failure of response.Failed ?? []) {
        const entry = failure.Id ? waiting.get(failure.Id) : undefined;
        if (!entry) continue;
        const reason = `${failure.Code ?? "unknown"}: ${failure.Message ?? "no message"}`;
        if (failure.SenderFault || attempt >= this.retry.attempts) {
          outcomes.push([entry, { ok: false, permanent: failure.SenderFault === true, reason }]);
        } else {
          retryable.set(failure.Id as string, entry);
        }
      }
      waiting = retryable;
      if (waiting.size > 0) await sleep(this.retry.delayMs * 2 ** (attempt - 1));
    }
    return outcomes;
  }
}

/** An alert's outcome from its entries': published when every one was; a sender fault is permanent. */
function outcomeOf(alert: OutgoingAlert, entries: readonly [Entry, EntryOutcome][]): PublishOutcome {
  const failures = entries.flatMap(([, outcome]) => (outcome.ok ? [] : [outcome]));
  const first = entries.find(([, outcome]) => outcome.ok)?.[1];
  if (failures.length === 0 && first?.ok)
    return { alertId: alert.alertId, ok: true, messageId: first.messageId };
  const sentTo = entries.flatMap(([entry, outcome]) =>
    outcome.ok && entry.to !== undefined ? [entry.to] : [],
  );
  return {
    alertId: alert.alertId,
    ok: false,
    permanent: failures.some((failure) => failure.permanent),
    reason: failures[0]?.reason ?? "no outcome",
    ...(sentTo.length > 0 && { sentTo }),
  };
}

function toEntry(id: string, { alert, to }: Entry): PublishBatchRequestEntry {
  const { message } = alert;
  return {
    Id: id,
    Subject: message.subject,
    MessageStructure: "json",
    Message: JSON.stringify({ default: message.default, email: message.email, sms: message.sms }),
    MessageAttributes:
      to === undefined ? message.attributes : { ...message.attributes, ...stringAttributes({ to }) },
  };
}
