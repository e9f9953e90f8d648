import type { PositionSource } from "@fleet-alerts/core/context";
import { escapeHtml, factList, instantInBothZones } from "@fleet-alerts/core/evidence/report";
import type { Incident } from "./ports.js";

const POSITION_SOURCE_TEXT: Record<PositionSource, string> = {
  event: "as the device reported it with the event",
  track: "from the GPS track at the event time",
  "last-known": "the device's last known fix before the event",
};

/** The heading and what happened: the event, when (UTC and the fleet's zone), vehicle, driver, device, where, how fast. */
export function eventSection(incident: Incident): string {
  const { event } = incident;
  const at = instantInBothZones(event.eventMs, incident.fleetTimeZone);
  const text = (value: string | undefined) =>
    value === undefined ? `<span class="absent">not reported by the device</span>` : escapeHtml(value);
  const facts: [string, string][] = [
    ["Event", escapeHtml(event.name)],
    ["Time (UTC)", escapeHtml(at.utc)],
    ["Time (fleet's zone)", escapeHtml(at.fleet)],
    ["Vehicle", text(event.vehicle)],
    ["Driver", text(event.driver)],
    ["Device", escapeHtml(event.deviceid)],
    ["Position", positionText(incident.position)],
  ];
  if (incident.speedAtEventKmh !== undefined)
    facts.push(["Speed at the event", `${incident.speedAtEventKmh.toFixed(1)} km/h`]);
  if (incident.speedLimitKmh !== undefined)
    facts.push(["Speed limit stated", `${incident.speedLimitKmh} km/h`]);
  return `<header>
<h1>${escapeHtml(event.name)} · ${escapeHtml(event.vehicle ?? event.deviceid)}</h1>
<p>${escapeHtml(at.utc)} · ${escapeHtml(at.fleet)}</p>
</header>
<section id="event">
<h2>Event</h2>
${factList(facts)}
</section>`;
}

function positionText(position: Incident["position"]): string {
  if (position === undefined) return `<span class="absent">unknown</span>`;
  return `${position.lat.toFixed(6)}, ${position.lng.toFixed(6)} (${POSITION_SOURCE_TEXT[position.source]})`;
}
