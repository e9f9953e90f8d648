import {
  type AlertBody,
  type AlertContext,
  type AlertFacts,
  type AlertMessage,
  buildAlertMessage,
  gatherFacts,
} from "@fleet-alerts/core/alerts";
import { type IncidentContext, resolveIncidentContext } from "@fleet-alerts/core/context";
import { deviceEventSchema, type FleetDevice, fleetDeviceSchema } from "@fleet-alerts/core/devicecloud";
import { DEFAULT_RULES, type Rule } from "@fleet-alerts/core/rules";

export const [overspeed, gsensor, offline] = DEFAULT_RULES as [Rule, Rule, Rule, Rule];

export function eventAt(eventtime: string, overrides: Record<string, unknown> = {}) {
  return deviceEventSchema.parse({
    serialno: "1000123",
    deviceid: "0012345678",
    eventtime,
    appdevid: 16,
    ...overrides,
  });
}

export function fleetDevice(overrides: Record<string, unknown> = {}): FleetDevice {
  return fleetDeviceSchema.parse({
    deviceid: "0012345678",
    status: 1,
    nmea: "",
    updatetime: "2026-03-29T01:30:00.000Z",
    vehicleid: "TRK-01",
    drivername: "Ada Lovelace",
    channel: 4,
    gpsdata: {
      time: Date.parse("2026-03-29T01:29:55Z"),
      lat: 52.52,
      lng: 13.405,
      speedInKmh: 81.6,
      trackingAngle: 90,
    },
    ...overrides,
  });
}

/** At the event: its own coordinates, speed and heading from the GPS track. */
export const INCIDENT_AT_EVENT: IncidentContext = {
  position: { lat: 52.52, lng: 13.405, source: "event", fixMs: Date.parse("2026-03-29T01:30:00.000Z") },
  motion: { speedKmh: 81.6, headingDeg: 90, source: "track" },
};

/**
 * An alert's context; unless `incident` is given, resolved as the poller would without a GPS
 * history: the event has no coordinates, so the device's last fix (5 s before the event) places it.
 */
export function context(overrides: Partial<AlertContext> = {}): AlertContext {
  const base = {
    alertId: "east:1000123:gsensor",
    account: "east",
    event: eventAt("2026-03-29T01:30:00.000Z"),
    rule: gsensor,
    suppressedBefore: 0,
    device: fleetDevice(),
    fleetTimeZone: "Europe/Berlin",
    ...overrides,
  };
  return {
    ...base,
    incident:
      overrides.incident ??
      resolveIncidentContext({
        event: base.event,
        rule: base.rule,
        device: base.device,
        history: { status: "unavailable", reason: "disabled" },
      }),
  };
}

export function factsOf(overrides: Partial<AlertContext> = {}): AlertFacts {
  return gatherFacts(context(overrides));
}

/** The facts of an event at `eventtime` in `fleetTimeZone`, without the device's status. */
export function factsAt(eventtime: string, fleetTimeZone: string): AlertFacts {
  return factsOf({ event: eventAt(eventtime), fleetTimeZone, device: undefined });
}

/** The alert's messages for a device the device cloud names so (its id on the event too). */
export function messageFor({
  vehicleid,
  drivername,
  deviceid = "0012345678",
}: {
  vehicleid: string;
  drivername: string;
  deviceid?: string;
}): AlertMessage {
  return buildAlertMessage(
    context({
      device: fleetDevice({ vehicleid, drivername, deviceid }),
      event: eventAt("2026-03-29T01:30:00.000Z", { deviceid }),
    }),
  );
}

/** The alert body as published for a device the device cloud names so. */
export function bodyFor(names: Parameters<typeof messageFor>[0]): AlertBody {
  return JSON.parse(messageFor(names).default) as AlertBody;
}

/** Vehicle and driver names that the one-line channels must squeeze into their alphabets and limits. */
export const AWKWARD_NAMES: [vehicleid: string, drivername: string][] = [
  ["Lastwagen Nürnberg–München „Süd“ Nr. 7", "Zoë Łukasiewicz-Straße"],
  ["Фура 12", "Иван Петров"],
  ["TRK\n01\tBERLIN\r\n", "Ada\u2028Lovelace\u0007"],
  ["Truck [north] {A|B} ~1^2 `x` \\y", "O'Brien € 5"],
  ["🚚 Truck 🚚", "👩‍✈️ Grace"],
  ["V".repeat(500), "D".repeat(500)],
  ["X".repeat(20), "Hubert Blaine Wolfeschlegelsteinhausenbergerdorff Sr. ".repeat(5)],
];

export function awkwardTitle([vehicleid, drivername]: [string, string]): string {
  return `${JSON.stringify(vehicleid.slice(0, 24))} / ${JSON.stringify(drivername.slice(0, 24))}`;
}

export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Printable ASCII without the characters GSM 03.38 lacks or escapes (which would cost two).
export const GSM_SAFE_ASCII = /^[\x20-\x5a\x5f\x61-\x7a]*$/;
