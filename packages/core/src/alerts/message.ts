import { SNS_MAX_SUBJECT_LENGTH } from "../aws-limits.js";
import { eventCodeName, isKnownEventCode } from "../devicecloud/codes.js";
import type { FleetDevice, GpsData } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import { formatDuration } from "../rules/duration.js";
import type { Rule, Severity } from "../rules/schema.js";
import { SMS_SEGMENT_LENGTH, singleLine, toAscii, toGsm } from "../text/alphabet.js";
import { fitLine, type LineParts } from "../text/fit.js";
import { type FleetClock, fleetClock, utcTime } from "../text/fleet-clock.js";
import { listInWords, nonEmpty, plural } from "../text/words.js";

export interface AlertContext {
  /** e.g. "main:1000123:overspeed" */
  alertId: string;
  /** The account id from the configuration, e.g. "main". */
  account: string;
  event: DeviceEvent;
  rule: Rule;
  /** Repeats suppressed by the cooldown since the previous alert of this rule for this device. */
  suppressedBefore: number;
  /** The device's entry in the all-devices list, when it could be had. */
  device?: FleetDevice;
  /** IANA time zone in which the fleet's people read times, e.g. "Europe/Berlin". */
  fleetTimeZone: string;
  /** For an Offline alert sent only once the device had stayed offline this many minutes. */
  confirmedOfflineMinutes?: number;
}

export interface SnsMessageAttribute {
  DataType: "String" | "Number";
  StringValue: string;
}

/** The bodies of an SNS message with MessageStructure "json", plus its attributes. */
export interface AlertMessage {
  /** Printable ASCII, one line, under 100 characters (SNS's rules for email subjects). */
  subject: string;
  /** Plain text. */
  email: string;
  /** One line of at most 160 GSM-7 characters: a single SMS segment. */
  sms: string;
  /** The structured alert as JSON, for SQS, Lambda and HTTP subscribers. */
  default: string;
  /** For subscription filter policies. */
  attributes: Record<string, SnsMessageAttribute>;
}

const OSM_ZOOM = 16;

/**
 * Renders an alert for every SNS protocol. Throws a RangeError naming the zone when
 * `fleetTimeZone` is not an IANA time zone. Only the fields named here are copied from the event
 * and the device (both may carry fields the service added), so nothing else can leak into a message.
 */
export function buildAlertMessage(context: AlertContext): AlertMessage {
  const facts = gatherFacts(context);
  return {
    subject: buildSubject(facts),
    email: buildEmail(facts, context),
    sms: buildSms(facts, context),
    default: JSON.stringify(structuredAlert(facts, context)),
    attributes: messageAttributes(context),
  };
}

interface Position {
  lat: number;
  lng: number;
  url: string;
  fixMs: number;
  speedKmh: number;
}

/** What every rendering needs, worked out once. Texts from the device cloud are made single-line. */
interface AlertFacts {
  clock: FleetClock;
  severity: Severity;
  eventName: string;
  /** The event name, with the offline duration once that is confirmed. */
  headline: string;
  deviceid: string;
  vehicle?: string;
  driver?: string;
  eventMs: number;
  position?: Position;
  /** Why the position is unknown, when it is. */
  positionGap?: string;
}

function gatherFacts(context: AlertContext): AlertFacts {
  const { event, device, confirmedOfflineMinutes } = context;
  const eventName = eventCodeName(event.appdevid);
  return {
    clock: fleetClock(context.fleetTimeZone),
    severity: context.rule.severity,
    eventName,
    headline:
      confirmedOfflineMinutes === undefined ? eventName : `${eventName} ${confirmedOfflineMinutes}+ min`,
    deviceid: singleLine(event.deviceid),
    vehicle: nonEmpty(singleLine(device?.vehicleid ?? "")),
    driver: nonEmpty(singleLine(device?.drivername ?? "")),
    eventMs: Date.parse(event.eventtime),
    position: device?.gpsdata && positionOf(device.gpsdata),
    positionGap:
      device === undefined
        ? "no device status was available"
        : device.gpsdata === undefined
          ? "the device reported no GPS fix"
          : undefined,
  };
}

function positionOf(gps: GpsData): Position {
  const lat = gps.lat.toFixed(5);
  const lng = gps.lng.toFixed(5);
  return {
    lat: gps.lat,
    lng: gps.lng,
    url: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=${OSM_ZOOM}/${lat}/${lng}`,
    fixMs: gps.time,
    speedKmh: gps.speedInKmh,
  };
}

// ---- subject and SMS: one short line each ----

function buildSubject(facts: AlertFacts): string {
  const head = `[${facts.severity.toUpperCase()}] ${toAscii(facts.headline)} - `;
  return fitLine({ head, ...whoIn(facts, toAscii) }, SNS_MAX_SUBJECT_LENGTH);
}

/** Most important first: severity, event, vehicle, driver, local time, position; then extras if room. */
function buildSms(facts: AlertFacts, context: AlertContext): string {
  const head = `${facts.severity.toUpperCase()} ${toGsm(facts.headline)} - `;
  const where = facts.position
    ? `at ${facts.position.lat.toFixed(4)},${facts.position.lng.toFixed(4)}`
    : "position unknown";
  const tail = ` ${facts.clock.short(facts.eventMs)}, ${where}`;
  const extras = [
    facts.position && `${Math.round(facts.position.speedKmh)} km/h`,
    context.suppressedBefore > 0 && `${plural(context.suppressedBefore, "repeat")} suppressed`,
  ];
  let sms = fitLine({ head, ...whoIn(facts, toGsm), tail }, SMS_SEGMENT_LENGTH);
  for (const extra of extras) {
    // Whole or not at all: a cut-off extra would mislead.
    if (extra && sms.length + 2 + extra.length <= SMS_SEGMENT_LENGTH) sms += `, ${extra}`;
  }
  return sms;
}

/** Vehicle and driver in a restricted alphabet; the device id stands in for a missing vehicle. */
function whoIn(facts: AlertFacts, alphabet: (text: string) => string): Pick<LineParts, "name" | "aside"> {
  const vehicle = nonEmpty(alphabet(facts.vehicle ?? "")) ?? `device ${alphabet(facts.deviceid)}`;
  return { name: vehicle, aside: nonEmpty(alphabet(facts.driver ?? "")) };
}

// ---- email: the full story ----

function buildEmail(facts: AlertFacts, context: AlertContext): string {
  const { event, rule, device } = context;
  const noStatus = "unknown (no device status was available)";
  const vehicle = facts.vehicle ?? (device === undefined ? noStatus : "not set");
  const driver = facts.driver ?? (device === undefined ? noStatus : "not set");
  const subjectOf = facts.vehicle === undefined ? `device ${facts.deviceid}` : `vehicle ${facts.vehicle}`;
  const driverNote = facts.driver === undefined ? "" : ` (driver ${facts.driver})`;

  const details = [
    field("Event", describeEventCode(event.appdevid)),
    field("Vehicle", vehicle),
    field("Driver", driver),
    field("Device ID", facts.deviceid),
    field("Time", facts.clock.long(facts.eventMs), utcTime(facts.eventMs)),
    ...positionFields(facts),
    field("Serial no.", String(event.serialno)),
    field("Rule", rule.description === undefined ? rule.id : `${rule.id} - ${singleLine(rule.description)}`),
    field("Severity", rule.severity),
  ];
  const paragraphs = [
    `${facts.severity.toUpperCase()}: ${facts.headline} on ${subjectOf}${driverNote}.`,
    details.join("\n"),
    context.confirmedOfflineMinutes !== undefined &&
      `Confirmed: the device was still offline ${plural(context.confirmedOfflineMinutes, "minute")} after this event.`,
    context.suppressedBefore > 0 && suppressedSentence(context.suppressedBefore, rule.cooldownSeconds),
    evidenceSentence(rule.evidence),
    `Alert ID: ${context.alertId} (account ${context.account})`,
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

function positionFields(facts: AlertFacts): string[] {
  const { position } = facts;
  if (position === undefined) return [field("Position", `unknown (${facts.positionGap})`)];
  const fixAge = relativeTo(position.fixMs - facts.eventMs);
  return [
    field(
      "Position",
      `${position.lat.toFixed(5)}, ${position.lng.toFixed(5)} (last GPS fix ${facts.clock.dateTime(position.fixMs)}, ${fixAge})`,
    ),
    field("Map", position.url),
    field("Speed", `${Math.round(position.speedKmh)} km/h at that fix`),
  ];
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

// ---- structured alert and attributes ----

function structuredAlert(facts: AlertFacts, context: AlertContext) {
  const { event, rule, device } = context;
  return {
    kind: "alert",
    alertId: context.alertId,
    account: context.account,
    ruleId: rule.id,
    severity: rule.severity,
    eventCode: event.appdevid,
    eventName: facts.eventName,
    deviceid: event.deviceid,
    // A string: JSON numbers lose precision beyond 2^53 in most consumers.
    serialno: String(event.serialno),
    eventtime: event.eventtime,
    vehicleid: device?.vehicleid ?? null,
    drivername: device?.drivername ?? null,
    position: facts.position
      ? {
          lat: facts.position.lat,
          lng: facts.position.lng,
          url: facts.position.url,
          fixtime: new Date(facts.position.fixMs).toISOString(),
        }
      : null,
    speedKmh: facts.position?.speedKmh ?? null,
    evidence: rule.evidence
      ? {
          channels: rule.evidence.channels,
          secondsBefore: rule.evidence.secondsBefore,
          secondsAfter: rule.evidence.secondsAfter,
        }
      : null,
    suppressedBefore: context.suppressedBefore,
    confirmedOfflineMinutes: context.confirmedOfflineMinutes ?? null,
  };
}

function messageAttributes({
  alertId,
  account,
  event,
  rule,
}: AlertContext): Record<string, SnsMessageAttribute> {
  const text = (value: string): SnsMessageAttribute => ({ DataType: "String", StringValue: value });
  return {
    kind: text("alert"),
    alert_id: text(alertId),
    account: text(account),
    rule: text(rule.id),
    severity: text(rule.severity),
    event_code: { DataType: "Number", StringValue: String(event.appdevid) },
    deviceid: text(event.deviceid),
  };
}
