import { splitTrailingLink } from "../alerts/incident-link.js";
import type { AlertMessage } from "../alerts/message.js";
import { stringAttributes } from "../alerts/render/attributes.js";
import { SNS_MAX_SUBJECT_LENGTH } from "../aws-limits.js";
import { formatDuration } from "../rules/duration.js";
import { SMS_SEGMENT_LENGTH } from "../text/alphabet.js";
import { shorten } from "../text/fit.js";

export interface EscalationStep {
  level: number;
  levels: number;
  /** How long the alert has gone unacknowledged. */
  unacknowledgedSeconds: number;
}

/**
 * The alert's own message, re-sent to the escalation topic: every body says first that nobody
 * acknowledged it, for how long, and which level this is. The String attribute `level` is what the
 * escalation topic's subscription filter policies match (infra/escalation.ts): each level's people
 * get their level alone (ops 1, supervisors 2).
 */
export function escalationMessage(alert: AlertMessage, step: EscalationStep): AlertMessage {
  const waited = formatDuration(step.unacknowledgedSeconds);
  const notice = `Not acknowledged after ${waited} (escalation level ${step.level} of ${step.levels})`;
  const body = JSON.parse(alert.default) as Record<string, unknown>;
  // The alert's SMS ends with its incident link when it has one: the notice is fitted in before
  // it, never by cutting the link.
  const { text: smsText, link } = splitTrailingLink(alert.sms);
  const smsRoom = SMS_SEGMENT_LENGTH - (link ? link.length + 1 : 0);
  return {
    // Both already in their alphabets (ASCII, GSM-7), and so is the notice: only the length is fitted.
    subject: shorten(`${notice}: ${alert.subject}`, SNS_MAX_SUBJECT_LENGTH),
    email: `${notice}.\n\n${alert.email}`,
    sms:
      shorten(`Not acknowledged after ${waited} (level ${step.level}/${step.levels}): ${smsText}`, smsRoom) +
      (link ? ` ${link}` : ""),
    default: JSON.stringify({ ...body, escalation: { ...step } }),
    attributes: {
      ...alert.attributes,
      ...stringAttributes({ kind: "escalation", level: String(step.level) }),
    },
  };
}
