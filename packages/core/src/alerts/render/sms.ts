import { SMS_SEGMENT_LENGTH, toGsm } from "../../text/alphabet.js";
import { fitLine } from "../../text/fit.js";
import { plural } from "../../text/words.js";
import type { AlertFacts } from "../facts.js";
import { whoIn } from "./who.js";

/**
 * One SMS segment, most important first: severity, event, vehicle, driver, local time, position;
 * then extras if room.
 */
export function renderSms(facts: AlertFacts): string {
  const head = `${facts.severity.toUpperCase()} ${toGsm(facts.headline)} - `;
  const where = facts.position
    ? `at ${facts.position.lat.toFixed(4)},${facts.position.lng.toFixed(4)}`
    : "position unknown";
  const tail = ` ${facts.clock.short(facts.eventMs)}, ${where}`;
  const extras = [
    facts.position && `${Math.round(facts.position.speedKmh)} km/h`,
    facts.suppressedBefore > 0 && `${plural(facts.suppressedBefore, "repeat")} suppressed`,
  ];
  let sms = fitLine({ head, ...whoIn(facts, toGsm), tail }, SMS_SEGMENT_LENGTH);
  for (const extra of extras) {
    // Whole or not at all: a cut-off extra would mislead.
    if (extra && sms.length + 2 + extra.length <= SMS_SEGMENT_LENGTH) sms += `, ${extra}`;
  }
  return sms;
}
