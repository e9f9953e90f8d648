/**
 * Who got what, locally. The poller publishes an alert once per recipient, with the recipient's id
 * in the `to` attribute, and each email address or SMS number is one subscription filtering on
 * its id. Here each distinct recipient of the groups file (and ops' "unrouted") is one SQS queue
 * subscribed that way, so that what a queue receives is what that person would get.
 */
import type { SQSClient } from "@aws-sdk/client-sqs";
import { type GroupsFile, recipientId, UNROUTED_RECIPIENT } from "@fleet-alerts/core/routing";
import type { Emulators } from "./emulators.js";
import { readQueue } from "./notifications.js";

export interface Recipient {
  /** The `to` attribute its messages carry. */
  id: string;
  channel: "email" | "sms";
  /** The address or number (local test addresses: the view shows them). */
  address: string;
}

/** The distinct recipients of a groups file: an address in two groups is one recipient. */
export function recipientsOf(file: GroupsFile): Recipient[] {
  const recipients = new Map<string, Recipient>();
  for (const group of file.groups) {
    for (const address of group.email) {
      const id = recipientId("email", address);
      if (!recipients.has(id)) recipients.set(id, { id, channel: "email", address });
    }
    for (const address of group.sms) {
      const id = recipientId("sms", address);
      if (!recipients.has(id)) recipients.set(id, { id, channel: "sms", address });
    }
  }
  return [...recipients.values()];
}

/** What one recipient received: a local line of its own (see report.ts). */
export interface Notified {
  type: "notified";
  channel: Recipient["channel"];
  recipient: string;
  /** The message's `kind` attribute (alert, evidence-ready, ...). */
  kind: string;
  alertId?: string;
  subject?: string;
}

/**
 * Subscribes one queue per recipient, and ops' address for alerts no group selects; `read` drains
 * them all once and returns what each recipient got.
 */
export async function subscribeRecipients(
  emulators: Pick<Emulators, "subscribeQueue">,
  sqs: SQSClient,
  file: GroupsFile,
) {
  const everyone: Recipient[] = [
    ...recipientsOf(file),
    { id: UNROUTED_RECIPIENT, channel: "email", address: "ops (unrouted)" },
  ];
  const queues = await Promise.all(
    everyone.map(async (recipient) => ({
      recipient,
      url: (await emulators.subscribeQueue({ to: [recipient.id] })).url,
    })),
  );
  return {
    async read(): Promise<Notified[]> {
      const received = await Promise.all(
        queues.map(async ({ recipient, url }) =>
          (await readQueue(sqs, url)).map(
            (message): Notified => ({
              type: "notified",
              channel: recipient.channel,
              recipient: recipient.address,
              kind: message.attributes.kind?.value ?? "unknown",
              ...(message.attributes.alert_id && { alertId: message.attributes.alert_id.value }),
              ...(message.subject !== undefined && { subject: message.subject }),
            }),
          ),
        ),
      );
      return received.flat();
    },
  };
}
