import { eventCodeName, isKnownEventCode } from "../../devicecloud/codes.js";
import { formatDuration } from "../../rules/duration.js";
import type { Rule } from "../../rules/schema.js";
import { utcTime } from "../../text/fleet-clock.js";
import { listInWords, plural } from "../../text/words.js";
import type { AlertFacts, AlertPosition } from "../facts.js";
import { recorderGapSentence } from "../recorder-gap.js";

/** The plain-text email body: the full story, with the names as they are (but on one line each). */
export function renderEmail(facts: AlertFacts): string {
  const noStatus = "unknown (no device status was available)";
  const vehicle = facts.vehicle ?? (facts.deviceStatusKnown ? "not set" : noStatus);
  const driver = facts.driver ?? (facts.deviceStatusKnown ? "not set" : noStatus);
  const subjectOf = facts.vehicle === undefined ? `device ${facts.deviceid}` : `vehicle ${facts.vehicle}`;
  const driverNote = facts.driver === undefined ? "" : ` (driver ${facts.driver})`;

  const details = [
    field("Event", facts.recorderGap ? gapEvent(facts) : describeEventCode(facts.eventCode)),
    field("Vehicle", vehicle),
    field("Driver", driver),
    field("Device ID", facts.deviceid),
    field("Time", facts.clock.long(facts.eventMs), utcTime(facts.eventMs)),
    ...positionFields(facts),
    field("Serial no.", facts.serialno),
    field(
      "Rule",
      facts.ruleDescription === undefined ? facts.ruleId : `${facts.ruleId} - ${facts.ruleDescription}`,
    ),
    field("Severity", facts.severity),
  ];
  const paragraphs = [
    `${facts.severity.toUpperCase()}: ${facts.headline} on ${subjectOf}${driverNote}.`,
    facts.link !== undefined &&
      `Open the incident (map, speed, video, acknowledge): ${facts.link.text}\nThe link is for your team: anyone who has it can open this alert until it expires.`,
    details.join("\n"),
    facts.recorderGap !== undefined && recorderGapSentence(facts.recorderGap, facts.clock),
    facts.confirmedOfflineMinutes !== undefined &&
      `Confirmed: the device was still offline ${plural(facts.confirmedOfflineMinutes, "minute")} after this event.`,
    facts.suppressedBefore > 0 && suppressedSentence(facts.suppressedBefore, facts.cooldownSeconds),
    evidenceSentence(facts.evidence),
    `Alert ID: ${facts.alertId} (account ${facts.account})`,
  ];
  return `${paragraphs.filter((paragraph) => paragraph !== false).join("\n\n")}\n`;
}

const LABEL_WIDTH = "Serial no.: ".length;

/** `Label:  value`, further values aligned beneath the first. */
function field(label: string, value: string, ...more: string[]): string {
  const indent = " ".repeat(LABEL_WIDTH);
  return [`${`${label}:`.padEnd(LABEL_WIDTH)}${value}`, ...more.map((line) => `${indent}${line}`)].join("\n");
}

function describeEventCode(code: number): string {
  return isKnownEventCode(code)
    ? `${eventCodeName(code)} (event code ${code})`
    : `${eventCodeName(code)} (a code the service's table of events does not name)`;
}

function gapEvent(facts: AlertFacts): string {
  return `${facts.eventName} (found by the recorder audit: driven without video; no device event)`;
}

function positionFields(facts: AlertFacts): string[] {
  const { position } = facts;
  return [
    position === undefined
      ? field("Position", `unknown (${facts.positionGap})`)
      : field(
          "Position",
          `${position.lat.toFixed(5)}, ${position.lng.toFixed(5)} (${whereFrom(facts, position)})`,
        ),
    ...(position ? [field("Map", position.url)] : []),
    field("Speed", speedAtEvent(facts)),
    ...(facts.motion?.headingDeg === undefined
      ? []
      : [field("Heading", headingText(facts.motion.headingDeg))]),
  ];
}

function whereFrom(facts: AlertFacts, position: AlertPosition): string {
  const offset = relativeTo(position.fixMs - facts.eventMs);
  switch (position.source) {
    case "event":
      return "reported with the event";
    case "track":
      return position.method === "nearest"
        ? `GPS track, nearest point ${offset}`
        : "GPS track, at the time of the event";
    case "last-known":
      return `last known position, ${offset}; GPS fix of ${facts.clock.dateTime(position.fixMs)}`;
  }
}

const SPEED_FROM = {
  track: "GPS track",
  memo: "as the device reported it with the event",
  "last-known": "last GPS fix, within 30 s of the event",
} as const;

function speedAtEvent({ motion, speedLimitKmh }: AlertFacts): string {
  const limit = speedLimitKmh === undefined ? "" : `, limit ${Math.round(speedLimitKmh)} km/h`;
  if (motion === undefined) return `unknown at the event (no GPS data near it)${limit}`;
  return `${Math.round(motion.speedKmh)} km/h at the event (${SPEED_FROM[motion.source]})${limit}`;
}

const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;

function headingText(degrees: number): string {
  const normalized = ((degrees % 360) + 360) % 360;
  return `${Math.round(normalized)} degrees (${COMPASS[Math.round(normalized / 45) % 8]})`;
}

function relativeTo(offsetMs: number): string {
  const seconds = Math.round(offsetMs / 1000);
  if (seconds === 0) return "at the time of the event";
  return `${formatDuration(seconds)} ${seconds < 0 ? "before" : "after"} the event`;
}

function suppressedSentence(count: number, cooldownSeconds: number): string {
  const cooldown = cooldownSeconds > 0 ? ` (the rule's cooldown is ${formatDuration(cooldownSeconds)})` : "";
  return `${plural(count, "repeat")} of this event from this device ${count === 1 ? "was" : "were"} suppressed since the previous alert${cooldown}.`;
}

function evidenceSentence(evidence: Rule["evidence"]): string {
  if (evidence === undefined) return "No video evidence was requested by this rule.";
  const { channels, secondsBefore, secondsAfter } = evidence;
  const channelList = `${channels.length === 1 ? "channel" : "channels"} ${listInWords(channels.map(String))}`;
  const before = secondsBefore === 0 ? "the event" : `${formatDuration(secondsBefore)} before`;
  const after = secondsAfter === 0 ? "the event" : `${formatDuration(secondsAfter)} after the event`;
  return `Video evidence: ${channelList}, from ${before} to ${after}, will follow when the device has uploaded it.`;
}
