import type { AlertMessage } from "../alerts/message.js";
import type { AlertRecord } from "../alerts/record.js";
import { stringAttributes } from "../alerts/render/attributes.js";
import type { NoticeMessage } from "../notices/deliver-once.js";
import { UNROUTED_RECIPIENT } from "../routing/route.js";

/**
 * Who hears of an alert's evidence (ready, unavailable, at risk): the people the alert itself
 * reached by email, one message each (routing/route.ts); an alert routed before routing existed
 * went to every subscriber, now the ops' `unrouted` recipient. Nobody for a stale alert (sent to no
 * one: the stale summary lists it, its incident page shows the evidence) nor for one every matching
 * group held (their quiet-hour summary tells of it), nor for footage asked for by hand (status
 * `requested`: the requester has its link, and `evidence request --wait` tells them it is there).
 */
export function evidenceRecipients(record: AlertRecord | undefined): readonly string[] {
  if (record?.status === "stale" || record?.status === "requested") return [];
  return record?.route?.email ?? [UNROUTED_RECIPIENT];
}

/** The notice as one message per recipient: only the recipient's own subscription takes it (routing/subscriptions.ts). */
export function messagesTo(recipients: readonly string[], message: AlertMessage): NoticeMessage[] {
  return recipients.map((to) => ({
    to,
    message: { ...message, attributes: { ...message.attributes, ...stringAttributes({ to }) } },
  }));
}
