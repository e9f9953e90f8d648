import { isTimeZone } from "../config/time-zone.js";
import { eventCodeName, isKnownEventCode } from "../devicecloud/codes.js";
import type { FleetDevice, GpsData } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import { formatDuration } from "../rules/duration.js";
import type { Rule, Severity } from "../rules/schema.js";

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

// SNS wants subjects "less than 100 characters long".
const SUBJECT_MAX_LENGTH = 99;
// A single segment holds 160 characters of the GSM 03.38 alphabet; one character outside it would
// switch the whole message to UCS-2 and 70 characters per segment.
const SMS_MAX_LENGTH = 160;
const ELLIPSIS = "...";
const OSM_ZOOM = 16;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

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
  return fitLine(head, whoIn(facts, toAscii), "", SUBJECT_MAX_LENGTH);
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
  let sms = fitLine(head, whoIn(facts, toGsm), tail, SMS_MAX_LENGTH);
  for (const extra of extras) {
    // Whole or not at all: a cut-off extra would mislead.
    if (extra && sms.length + 2 + extra.length <= SMS_MAX_LENGTH) sms += `, ${extra}`;
  }
  return sms;
}

interface Who {
  vehicle: string;
  driver?: string;
}

/** Vehicle and driver in a restricted alphabet; the device id stands in for a missing vehicle. */
function whoIn(facts: AlertFacts, alphabet: (text: string) => string): Who {
  const vehicle = nonEmpty(alphabet(facts.vehicle ?? "")) ?? `device ${alphabet(facts.deviceid)}`;
  return { vehicle, driver: nonEmpty(alphabet(facts.driver ?? "")) };
}

/** `head + vehicle (driver) + tail` in at most `max` characters, the names cut to make room. */
function fitLine(head: string, who: Who, tail: string, max: number): string {
  const decoration = who.driver === undefined ? 0 : " ()".length;
  const room = max - head.length - tail.length - decoration;
  const [vehicle, driver] = shareRoom(who.vehicle, who.driver ?? "", room);
  const line = `${head}${vehicle}${who.driver === undefined ? "" : ` (${driver})`}${tail}`;
  return shorten(line, max); // only bites when head and tail alone are too long
}

/** Cuts two texts to fit `room` together; a short one leaves its unused half to the other. */
function shareRoom(first: string, second: string, room: number): [string, string] {
  if (first.length + second.length <= room) return [first, second];
  const half = Math.floor(room / 2);
  if (first.length <= half) return [first, shorten(second, room - first.length)];
  if (second.length <= half) return [shorten(first, room - second.length), second];
  return [shorten(first, half), shorten(second, room - half)];
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return text.slice(0, Math.max(0, max));
  return `${text.slice(0, max - ELLIPSIS.length).trimEnd()}${ELLIPSIS}`;
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

// ---- time ----

interface FleetClock {
  /** `2026-03-29 03:30:00 Europe/Berlin (UTC+02:00)` */
  long(epochMs: number): string;
  /** `2026-03-29 03:30:00 UTC+2`: the offset, since it may differ from the event's across a DST change */
  dateTime(epochMs: number): string;
  /** `29 Mar 03:30 UTC+2` */
  short(epochMs: number): string;
}

// One per zone: building a DateTimeFormat costs more than rendering a whole alert with it.
const fleetClocks = new Map<string, FleetClock>();

function fleetClock(timeZone: string): FleetClock {
  let clock = fleetClocks.get(timeZone);
  if (!clock) {
    clock = newFleetClock(timeZone);
    fleetClocks.set(timeZone, clock);
  }
  return clock;
}

function newFleetClock(timeZone: string): FleetClock {
  if (!isTimeZone(timeZone)) {
    throw new RangeError(`fleet time zone "${timeZone}" is not an IANA time zone (such as "Europe/Berlin")`);
  }
  // Parts rather than a locale's layout: the same text whatever the runtime's locale data.
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "longOffset",
  });
  const wallClock = (epochMs: number) => {
    const parts = new Map(format.formatToParts(epochMs).map((part) => [part.type, part.value]));
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.get(type) ?? "";
    // "GMT+05:30"; plain "GMT" at offset zero in some ICU versions.
    const offset = part("timeZoneName").replace(/^GMT/, "") || "+00:00";
    return {
      date: `${part("year")}-${part("month")}-${part("day")}`,
      time: `${part("hour")}:${part("minute")}:${part("second")}`,
      monthDay: `${Number(part("day"))} ${MONTHS[Number(part("month")) - 1]}`,
      offset,
    };
  };
  return {
    long(epochMs) {
      const clock = wallClock(epochMs);
      return `${clock.date} ${clock.time} ${timeZone} (UTC${clock.offset})`;
    },
    dateTime(epochMs) {
      const clock = wallClock(epochMs);
      return `${clock.date} ${clock.time} ${shortOffset(clock.offset)}`;
    },
    short(epochMs) {
      const clock = wallClock(epochMs);
      return `${clock.monthDay} ${clock.time.slice(0, 5)} ${shortOffset(clock.offset)}`;
    },
  };
}

/** "+02:00" -> "UTC+2", "+05:30" -> "UTC+5:30", "+00:00" -> "UTC". */
function shortOffset(offset: string): string {
  const match = /^([+-])(\d\d):(\d\d)$/.exec(offset);
  if (match === null) return `UTC${offset}`;
  const [, sign, hours, minutes] = match;
  if (hours === "00" && minutes === "00") return "UTC";
  return `UTC${sign}${Number(hours)}${minutes === "00" ? "" : `:${minutes}`}`;
}

function utcTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

// ---- text ----

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** "1", "1 and 2", "1, 2 and 3" */
function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function nonEmpty(text: string): string | undefined {
  return text === "" ? undefined : text;
}

/** Control characters and line breaks become spaces: a device's texts must not add lines to a message. */
function singleLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ").trim();
}

// Letters that Unicode decomposition does not reduce to ASCII, and common typographic punctuation.
const ASCII_SUBSTITUTES: Record<string, string> = {
  ß: "ss",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Ø: "O",
  ø: "o",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Þ: "Th",
  þ: "th",
  ı: "i",
  "‘": "'",
  "’": "'",
  "‚": "'",
  "“": '"',
  "”": '"',
  "„": '"',
  "–": "-",
  "—": "-",
  "€": "EUR",
};

/** Printable ASCII on one line: accents dropped ("Zoë" -> "Zoe"), other scripts removed. */
function toAscii(text: string): string {
  return singleLine(
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/[^\x20-\x7e]/g, (char) => ASCII_SUBSTITUTES[char] ?? (/\s/.test(char) ? " " : "")),
  );
}

// ASCII characters outside the GSM 03.38 basic set: escaped ones count double, the backtick is absent.
const GSM_SUBSTITUTES: Record<string, string> = {
  "[": "(",
  "]": ")",
  "{": "(",
  "}": ")",
  "\\": "/",
  "|": "/",
  "~": "-",
  "^": "",
  "`": "'",
};

/** ASCII that is also in the GSM 03.38 basic set, so that 160 characters fill exactly one SMS. */
function toGsm(text: string): string {
  return toAscii(text).replace(/[[\]{}\\|~^`]/g, (char) => GSM_SUBSTITUTES[char] ?? "");
}
