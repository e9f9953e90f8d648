import { EVENT_CODES } from "../../devicecloud/codes.js";
import { SMS_SEGMENT_LENGTH, toGsm } from "../../text/alphabet.js";
import { fitLine } from "../../text/fit.js";
import { plural } from "../../text/words.js";
import type { AlertFacts } from "../facts.js";
import { whoIn } from "./who.js";

/**
 * One SMS segment, most important first: severity, event (an OverSpeed with its speed and limit),
 * vehicle, driver, local time, position at the event; then extras if room. A link to the incident
 * page goes last and is never cut: the rest is fitted into what it leaves, the position dropped
 * before the names would be cut short (the page shows it).
 */
export function renderSms(facts: AlertFacts): string {
  const link = facts.link && ` ${facts.link.text}`;
  const room = SMS_SEGMENT_LENGTH - (facts.link === undefined ? 0 : 1 + facts.link.length);
  return `${smsText(facts, room)}${link ?? ""}`;
}

// A vehicle name shorter than this would rather lose the position than be cut to it.
const MIN_NAME_ROOM = 16;

function smsText(facts: AlertFacts, max: number): string {
  const speed = facts.motion && `${Math.round(facts.motion.speedKmh)} km/h`;
  const overSpeed = facts.eventCode === EVENT_CODES.OverSpeed && speed !== undefined;
  const limit = facts.speedLimitKmh === undefined ? "" : ` (limit ${Math.round(facts.speedLimitKmh)})`;
  const head = `${facts.severity.toUpperCase()} ${toGsm(facts.headline)}${overSpeed ? ` ${speed}${limit}` : ""} - `;
  const time = ` ${facts.clock.short(facts.eventMs)}`;
  const withPlace = `${time}, ${whereIn(facts)}`;
  const tail =
    head.length + withPlace.length + MIN_NAME_ROOM <= max || facts.link === undefined ? withPlace : time;
  const extras = [
    !overSpeed && speed,
    facts.suppressedBefore > 0 && `${plural(facts.suppressedBefore, "repeat")} suppressed`,
  ];
  let sms = fitLine({ head, ...whoIn(facts, toGsm), tail }, max);
  for (const extra of extras) {
    // Whole or not at all: a cut-off extra would mislead.
    if (extra && sms.length + 2 + extra.length <= max) sms += `, ${extra}`;
  }
  return sms;
}

/** A last known fix may be far from the event: it says so, where the event's own place does not. */
function whereIn({ position }: AlertFacts): string {
  if (position === undefined) return "position unknown";
  const coordinates = `${position.lat.toFixed(4)},${position.lng.toFixed(4)}`;
  return position.source === "last-known" ? `last known ${coordinates}` : `at ${coordinates}`;
}
