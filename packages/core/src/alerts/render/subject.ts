import { SNS_MAX_SUBJECT_LENGTH } from "../../aws-limits.js";
import { toAscii } from "../../text/alphabet.js";
import { fitLine } from "../../text/fit.js";
import type { AlertFacts } from "../facts.js";
import { whoIn } from "./who.js";

/** The email subject: printable ASCII on one line (SNS's rules), severity, event, vehicle and driver. */
export function renderSubject(facts: AlertFacts): string {
  const head = `[${facts.severity.toUpperCase()}] ${toAscii(facts.headline)} - `;
  return fitLine({ head, ...whoIn(facts, toAscii) }, SNS_MAX_SUBJECT_LENGTH);
}
