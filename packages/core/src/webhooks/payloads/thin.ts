import type { AlertBody } from "../../alerts/render/json.js";
import { deviceShown, displayName, vehicleOrDevice } from "../../text/display.js";

/** What every machine channel is told of an alert: facts and the incident link, nothing personal by default. */
export interface ThinAlert {
  alertId: string;
  account: string;
  ruleId: string;
  severity: AlertBody["severity"];
  eventName: string;
  eventtime: string;
  deviceid: string;
  serialno: string;
  vehicleid: string | null;
  position: { lat: number; lng: number; source: string; fixtime: string; mapUrl: string } | null;
  speedKmh: number | null;
  speedLimitKmh: number | null;
  /** The incident page (it holds the alert's share token), when the alert's messages carry one. */
  link: string | null;
  /** Only for a target with `includeDriverName`: a driver's name is personal data. */
  drivername?: string | null;
}

export interface PayloadOptions {
  link: string | undefined;
  includeDriverName: boolean;
}

/** The facts of an alert body that leave for a machine channel. */
export function thinAlert(body: AlertBody, { link, includeDriverName }: PayloadOptions): ThinAlert {
  return {
    alertId: body.alertId,
    account: body.account,
    ruleId: body.ruleId,
    severity: body.severity,
    eventName: body.eventName,
    eventtime: body.eventtime,
    deviceid: body.deviceid,
    serialno: body.serialno,
    vehicleid: body.vehicleid,
    position: body.position && {
      lat: body.position.lat,
      lng: body.position.lng,
      source: body.position.source,
      fixtime: body.position.fixtime,
      mapUrl: body.position.url,
    },
    speedKmh: body.speedKmh,
    speedLimitKmh: body.speedLimitKmh,
    link: link ?? null,
    ...(includeDriverName && { drivername: body.drivername }),
  };
}

/**
 * One line for a person: "[CRITICAL] Crash: truck-7 at 2026-03-29T01:30:00Z". The device cloud's
 * texts here and in `factList` are for people (text/display.ts): one line, cut, a blank vehicle name
 * replaced by the device id; each channel then encodes them for its own markup (slack.ts, teams.ts).
 */
export function headline(alert: ThinAlert): string {
  return `[${alert.severity.toUpperCase()}] ${alert.eventName}: ${vehicleOrDevice(alert.vehicleid, alert.deviceid)} at ${alert.eventtime}`;
}

/** The facts shown to people, label and value, in this order (Slack fields, Teams facts). */
export function factList(alert: ThinAlert): Array<{ label: string; value: string }> {
  const driver = displayName(alert.drivername);
  const facts = [
    { label: "Severity", value: alert.severity },
    { label: "Rule", value: alert.ruleId },
    { label: "Event time", value: alert.eventtime },
    { label: "Vehicle", value: displayName(alert.vehicleid) ?? "not reported" },
    { label: "Device", value: deviceShown(alert.deviceid) },
    { label: "Account", value: alert.account },
  ];
  if (alert.speedKmh !== null)
    facts.push({
      label: "Speed",
      value: `${alert.speedKmh} km/h${alert.speedLimitKmh === null ? "" : ` (limit ${alert.speedLimitKmh})`}`,
    });
  if (alert.position)
    facts.push({
      label: "Position",
      value: `${alert.position.lat}, ${alert.position.lng} (${alert.position.source})`,
    });
  if (driver) facts.push({ label: "Driver", value: driver });
  return facts;
}
