import { setTimeout as sleep } from "node:timers/promises";
import { PublishBatchCommand, type PublishBatchRequestEntry, type SNSClient } from "@aws-sdk/client-sns";
import { SNS_MAX_BATCH_ENTRIES, SNS_MAX_MESSAGE_BYTES } from "../aws-limits.js";
import { awsJson, awsText } from "../aws-text.js";
import { chunkedByBytes } from "../chunked.js";
import type { AlertPublisher, OutgoingAlert, PublishOutcome } from "./ports.js";
import { stringAttributes } from "./render/attributes.js";

/** One message of an alert: to one recipient, or (no `to`) to every subscriber. */
interface Entry {
  alert: OutgoingAlert;
  to?: string;
}

/** An entry as SNS gets it, with its size as SNS counts it. */
interface Sized {
  entry: Entry;
  request: Omit<PublishBatchRequestEntry, "Id">;
  bytes: number;
}

type EntryOutcome = { ok: true; messageId: string } | { ok: false; permanent: boolean; reason: string };

/**
 * Publishes alerts to a topic with PublishBatch, as `MessageStructure: "json"` so that email and
 * SMS subscribers each get their own body, with message attributes for subscription filter
 * policies. An alert with recipients goes out as one message per recipient, with its id as the
 * `to` attribute (docs/design/routing-and-notices.md, Routing). Every entry's result is checked;
 * failed entries that are not sender faults are retried (bounded); an alert succeeds when all its
 * entries did. Messages are JSON in SQS's character set and batched within SNS's payload limit, so
 * that no text of the device cloud can make SNS refuse a whole batch; a message over the limit
 * alone is refused for good without asking.
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
    const sized = entries.map(sizedEntry);
    const tooLarge = sized
      .filter(({ bytes }) => bytes > SNS_MAX_MESSAGE_BYTES)
      .map(({ entry, bytes }): [Entry, EntryOutcome] => [
        entry,
        {
          ok: false,
          permanent: true,
          reason: `message of ${bytes} bytes, over SNS's ${SNS_MAX_MESSAGE_BYTES}`,
        },
      ]);
    const batches = chunkedByBytes(
      sized.filter(({ bytes }) => bytes <= SNS_MAX_MESSAGE_BYTES),
      SNS_MAX_BATCH_ENTRIES,
      SNS_MAX_MESSAGE_BYTES,
    );
    const settled = [
      ...tooLarge,
      ...(await Promise.all(batches.map((batch) => this.#publishBatch(batch)))).flat(),
    ];
    return alerts.map((alert) =>
      outcomeOf(
        alert,
        settled.filter(([entry]) => entry.alert === alert),
      ),
    );
  }

  async #publishBatch(batch: readonly Sized[]): Promise<[Entry, EntryOutcome][]> {
    const outcomes: [Entry, EntryOutcome][] = [];
    // Entry ids only need to be unique within one call: the position in this batch.
    let waiting = new Map(batch.map((sized, index) => [`a${index}`, sized]));
    for (let attempt = 1; waiting.size > 0; attempt++) {
      const response = await this.sns.send(
        new PublishBatchCommand({
          TopicArn: this.topicArn,
          PublishBatchRequestEntries: [...waiting].map(([id, { request }]) => ({ Id: id, ...request })),
        }),
      );
      for (const success of response.Successful ?? []) {
        const sized = success.Id ? waiting.get(success.Id) : undefined;
        if (!sized || !success.MessageId) continue;
        outcomes.push([sized.entry, { ok: true, messageId: success.MessageId }]);
        waiting.delete(success.Id as string);
      }
      const retryable = new Map<string, Sized>();
      for (const failure of response.Failed ?? []) {
        const sized = failure.Id ? waiting.get(failure.Id) : undefined;
        if (!sized) continue;
        const reason = `${failure.Code ?? "unknown"}: ${failure.Message ?? "no message"}`;
        if (failure.SenderFault || attempt >= this.retry.attempts) {
          outcomes.push([sized.entry, { ok: false, permanent: failure.SenderFault === true, reason }]);
        } else {
          retryable.set(failure.Id as string, sized);
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

/** The entry as SNS gets it: JSON and attribute values within SQS's character set (aws-text.ts). */
function sizedEntry(entry: Entry): Sized {
  const { message } = entry.alert;
  const attributes =
    entry.to === undefined
      ? message.attributes
      : { ...message.attributes, ...stringAttributes({ to: entry.to }) };
  const request = {
    Subject: message.subject,
    MessageStructure: "json",
    Message: awsJson({ default: message.default, email: message.email, sms: message.sms }),
    MessageAttributes: Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [
        name,
        { ...value, StringValue: awsText(value.StringValue) },
      ]),
    ),
  };
  // What SNS counts: the message and each attribute's name, type and value (the subject too, to be safe).
  const bytes = [
    request.Subject,
    request.Message,
    ...Object.entries(request.MessageAttributes).flatMap(([name, value]) => [
      name,
      value.DataType,
      value.StringValue,
    ]),
  ].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  return { entry, request, bytes };
}
