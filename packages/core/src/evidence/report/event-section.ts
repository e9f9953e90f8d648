import type { PositionSource } from "../../context/incident-context.js";
import { roundTo } from "../../rounding.js";
import { deviceShown, vehicleOrDevice } from "../../text/display.js";
import { escapeHtml, factList } from "./markup.js";
import type { ClaimReportModel } from "./model.js";
import { instantInBothZones } from "./report-times.js";

const POSITION_SOURCE_TEXT: Record<PositionSource, string> = {
  event: "as the device reported it with the event",
  track: "from the GPS track at the event time",
  "last-known": "the device's last known fix before the event",
};

/** The report's heading and what happened: the event, the vehicle, driver and device, and the alert raised. */
export function eventSection(model: ClaimReportModel): string {
  const { event, alert } = model;
  const at = instantInBothZones(event.eventMs, model.fleetTimeZone);
  const facts: [string, string][] = [
    ["Event", `${escapeHtml(event.name)}${event.code === undefined ? "" : ` (code ${event.code})`}`],
    ["Serial number", escapeHtml(event.serialno)],
    ["Time (UTC)", escapeHtml(at.utc)],
    ["Time (fleet's zone)", escapeHtml(at.fleet)],
    ["Vehicle", reportedText(event.vehicle)],
    ["Driver", reportedText(event.driver)],
    ["Device", escapeHtml(deviceShown(event.deviceid))],
  ];
  if (model.position) facts.push(["Position", positionText(model.position)]);
  if (model.speedAtEventKmh !== undefined)
    facts.push(["Speed at the event", `${roundTo(model.speedAtEventKmh, 1)} km/h`]);
  if (model.speedLimitKmh !== undefined) facts.push(["Speed limit stated", `${model.speedLimitKmh} km/h`]);
  return `<header>
<p class="kicker">Claim report · evidence of one alert</p>
<h1>${escapeHtml(event.name)} · ${escapeHtml(vehicleOrDevice(event.vehicle, event.deviceid))}</h1>
<p>${escapeHtml(at.utc)} · ${escapeHtml(at.fleet)}</p>
</header>
<section id="event">
<h2>Event</h2>
${factList(facts)}
<h3>Alert</h3>
${factList([
  ["Alert", escapeHtml(model.alert.alertId)],
  ["Rule", escapeHtml(alert.ruleId)],
  ["Severity", escapeHtml(alert.severity)],
  ["Account", escapeHtml(alert.account)],
])}
</section>`;
}

/** A text the device may not have reported (vehicle, driver), escaped, or saying it did not. */
export function reportedText(value: string | undefined): string {
  return value === undefined ? `<span class="absent">not reported by the device</span>` : escapeHtml(value);
}

/** A position to six decimals, with where it came from. */
export function positionText(position: NonNullable<ClaimReportModel["position"]>): string {
  return `${position.lat.toFixed(6)}, ${position.lng.toFixed(6)} (${POSITION_SOURCE_TEXT[position.source]})`;
}
