import type { IncidentContext, IncidentMotion, IncidentPosition } from "../context/incident-context.js";
import { eventCodeName } from "../devicecloud/codes.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { Rule, Severity } from "../rules/schema.js";
import { singleLine } from "../text/alphabet.js";
import { deviceShown, displayName } from "../text/display.js";
import { type FleetClock, fleetClock } from "../text/fleet-clock.js";
import { type LinkTemplate, linkTemplate } from "./incident-link.js";
import { NOT_RECORDING_EVENT_NAME, type RecorderGap } from "./recorder-gap.js";

export interface AlertContext {
  /** e.g. "north:1000123:overspeed" */
  alertId: string;
  /** The account id from the configuration, e.g. "north". */
  account: string;
  event: DeviceEvent;
  rule: Rule;
  /** Repeats suppressed by the cooldown since the previous alert of this rule for this device. */
  suppressedBefore: number;
  /** The device's entry in the all-devices list, when it could be had: vehicle and driver. */
  device?: FleetDevice;
  /** Where the vehicle was and how it moved at the event (see context/incident-context.ts). */
  incident: IncidentContext;
  /** IANA time zone in which the fleet's people read times, e.g. "Europe/Berlin". */
  fleetTimeZone: string;
  /** For an Offline alert sent only once the device had stayed offline this many minutes. */
  confirmedOfflineMinutes?: number;
  /** Where incident links start (PUBLIC_BASE_URL); none: the messages carry no link. */
  linkBaseUrl?: string;
  /** For a "not recording" alert of the recorder audit: the stretch driven without video. */
  recorderGap?: RecorderGap;
}

/** The position at the event, with a map link. */
export interface AlertPosition extends IncidentPosition {
  url: string;
}

/**
 * What every channel needs, worked out once, so that a renderer reads nothing else. Texts from the
 * device cloud are made for people here, once (text/display.ts: one line, no controls, cut between
 * graphemes; a blank name is no name); `asSent` keeps them as the service sent them, for the bodies
 * that machines read.
 */
export interface AlertFacts {
  alertId: string;
  account: string;
  ruleId: string;
  /** The rule's description on one line. */
  ruleDescription?: string;
  severity: Severity;
  cooldownSeconds: number;
  evidence?: Rule["evidence"];
  clock: FleetClock;
  eventCode: number;
  eventName: string;
  /** The event name, with the offline duration once that is confirmed. */
  headline: string;
  /** The serial number's digits: as a number it would lose precision beyond 2^53. */
  serialno: string;
  eventMs: number;
  deviceid: string;
  vehicle?: string;
  driver?: string;
  /** Whether the device's entry in the all-devices list could be had. */
  deviceStatusKnown: boolean;
  /** At the event, with its source: the event itself, the GPS track, or the last known fix. */
  position?: AlertPosition;
  /** Why the position is unknown, when it is. */
  positionGap?: string;
  /** Speed and heading at the event, when they could be had. */
  motion?: IncidentMotion;
  /** For an OverSpeed: the limit the memo or the rule states. */
  speedLimitKmh?: number;
  suppressedBefore: number;
  confirmedOfflineMinutes?: number;
  recorderGap?: RecorderGap;
  /** The incident page's link, its token still a slot (see incident-link.ts). */
  link?: LinkTemplate;
  asSent: {
    deviceid: string;
    eventtime: string;
    vehicleid?: string;
    drivername?: string;
  };
}

const OSM_ZOOM = 16;

/**
 * Only the fields named here are copied from the event and the device (both may carry fields the
 * service added), so nothing else can leak into a message. Throws a RangeError naming the zone when
 * `fleetTimeZone` is not an IANA time zone.
 */
export function gatherFacts(context: AlertContext): AlertFacts {
  const { event, rule, device, incident, confirmedOfflineMinutes, recorderGap } = context;
  // A recorder gap was raised by no device event: its code is the audit's own (recorder/).
  const eventName = recorderGap ? NOT_RECORDING_EVENT_NAME : eventCodeName(event.appdevid);
  return {
    alertId: context.alertId,
    account: context.account,
    ruleId: rule.id,
    ruleDescription: rule.description === undefined ? undefined : singleLine(rule.description),
    severity: rule.severity,
    cooldownSeconds: rule.cooldownSeconds,
    evidence: rule.evidence,
    clock: fleetClock(context.fleetTimeZone),
    eventCode: event.appdevid,
    eventName,
    headline: headlineOf(eventName, confirmedOfflineMinutes, recorderGap),
    serialno: String(event.serialno),
    eventMs: Date.parse(event.eventtime),
    deviceid: deviceShown(event.deviceid),
    vehicle: displayName(device?.vehicleid),
    driver: displayName(device?.drivername),
    deviceStatusKnown: device !== undefined,
    position: incident.position && withMapLink(incident.position),
    positionGap: incident.positionGap,
    motion: incident.motion,
    speedLimitKmh: incident.speedLimitKmh,
    suppressedBefore: context.suppressedBefore,
    confirmedOfflineMinutes,
    recorderGap,
    link: context.linkBaseUrl === undefined ? undefined : linkTemplate(context.linkBaseUrl),
    asSent: {
      deviceid: event.deviceid,
      eventtime: event.eventtime,
      vehicleid: device?.vehicleid,
      drivername: device?.drivername,
    },
  };
}

function headlineOf(eventName: string, offlineMinutes?: number, gap?: RecorderGap): string {
  if (gap) return `${eventName} ${gap.minutes} min`;
  return offlineMinutes === undefined ? eventName : `${eventName} ${offlineMinutes}+ min`;
}

function withMapLink(position: IncidentPosition): AlertPosition {
  const lat = position.lat.toFixed(5);
  const lng = position.lng.toFixed(5);
  return {
    ...position,
    url: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=${OSM_ZOOM}/${lat}/${lng}`,
  };
}
