import { type AlertContext, gatherFacts } from "./facts.js";
import { renderAttributes, type SnsMessageAttribute } from "./render/attributes.js";
import { renderEmail } from "./render/email.js";
import { renderJson } from "./render/json.js";
import { renderSms } from "./render/sms.js";
import { renderSubject } from "./render/subject.js";

export type { AlertContext } from "./facts.js";
export type { SnsMessageAttribute } from "./render/attributes.js";

/** The bodies of an SNS message with MessageStructure "json", plus its attributes. */
export interface AlertMessage {
  /** Printable ASCII, one line, under 100 characters (SNS's rules for email subjects). */
  subject: string;
  /** Plain text. */
  email: string;
  /** One line of at most 160 GSM-7 characters: a single SMS segment. */
  sms: string;
  /** The structured alert as JSON (an `AlertBody`), for SQS, Lambda and HTTP subscribers. */
  default: string;
  /** For subscription filter policies. */
  attributes: Record<string, SnsMessageAttribute>;
}

/**
 * Renders an alert for every SNS protocol. Throws a RangeError naming the zone when
 * `fleetTimeZone` is not an IANA time zone.
 */
export function buildAlertMessage(context: AlertContext): AlertMessage {
  const facts = gatherFacts(context);
  return {
    subject: renderSubject(facts),
    email: renderEmail(facts),
    sms: renderSms(facts),
    default: renderJson(facts),
    attributes: renderAttributes(facts),
  };
}
