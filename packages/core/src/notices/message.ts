import type { AlertMessage } from "../alerts/message.js";
import { stringAttributes } from "../alerts/render/attributes.js";
import { SNS_MAX_SUBJECT_LENGTH } from "../aws-limits.js";
import { SMS_SEGMENT_LENGTH, toAscii, toGsm } from "../text/alphabet.js";
import { shorten } from "../text/fit.js";
import type { NoticeMessage } from "./deliver-once.js";

/**
 * What the notices function sends, and the poller's stale summary; SMS subscriptions let
 * `sms-summary` through (with `alert`).
 */
export type NoticeKind = "quiet-summary" | "digest" | "sms-summary" | "stale-summary";

export interface NoticeText {
  subject: string;
  email: string;
  sms: string;
  /** The structured notice for machine subscribers: ids and counts, never a link's token. */
  body: Record<string, unknown>;
}

/**
 * One notice as a message per recipient: the same bodies, each with its own `to` attribute, which
 * only that recipient's subscription accepts (SNS subscription filter policies).
 */
export function noticeMessages(
  kind: NoticeKind,
  recipients: readonly string[],
  text: NoticeText,
): NoticeMessage[] {
  const message: Omit<AlertMessage, "attributes"> = {
    subject: shorten(toAscii(text.subject), SNS_MAX_SUBJECT_LENGTH),
    email: text.email,
    sms: shorten(toGsm(text.sms), SMS_SEGMENT_LENGTH),
    default: JSON.stringify({ kind, ...text.body }),
  };
  return recipients.map((to) => ({
    to,
    message: { ...message, attributes: stringAttributes({ kind, to }) },
  }));
}
