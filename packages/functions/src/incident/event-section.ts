import type { FootageRequest } from "@fleet-alerts/core/evidence";
import {
  escapeHtml,
  factList,
  instantInBothZones,
  positionText,
  reportedText,
} from "@fleet-alerts/core/evidence/report";
import { deviceShown, vehicleOrDevice } from "@fleet-alerts/core/text";
import type { Incident } from "./ports.js";

/**
 * The heading and what happened: the event and its serial number, when (UTC and the fleet's zone),
 * vehicle, driver, device, where, how fast.
 */
export function eventSection(incident: Incident): string {
  const { event } = incident;
  const at = instantInBothZones(event.eventMs, incident.fleetTimeZone);
  const facts: [string, string][] = [
    ["Event", escapeHtml(event.name)],
    ["Serial number", escapeHtml(event.serialno)],
    ["Time (UTC)", escapeHtml(at.utc)],
    ["Time (fleet's zone)", escapeHtml(at.fleet)],
    ["Vehicle", reportedText(event.vehicle)],
    ["Driver", reportedText(event.driver)],
    ["Device", escapeHtml(deviceShown(event.deviceid))],
    // Unlike the report (drawn once evidence is stored), the page is seen before any track: it says so.
    ["Position", incident.position ? positionText(incident.position) : `<span class="absent">unknown</span>`],
  ];
  if (incident.speedAtEventKmh !== undefined)
    facts.push(["Speed at the event", `${incident.speedAtEventKmh.toFixed(1)} km/h`]);
  if (incident.speedLimitKmh !== undefined)
    facts.push(["Speed limit stated", `${incident.speedLimitKmh} km/h`]);
  if (incident.request) facts.splice(1, 0, ...requestFacts(incident.request, incident.fleetTimeZone));
  return `<header>
<h1>${escapeHtml(event.name)} · ${escapeHtml(vehicleOrDevice(event.vehicle, event.deviceid))}</h1>
<p>${escapeHtml(at.utc)} · ${escapeHtml(at.fleet)}</p>
</header>
<section id="event">
<h2>Event</h2>
${factList(facts)}
</section>`;
}

/** Footage asked for by hand: the reason first (what the page is about), then who asked and when. */
function requestFacts(request: FootageRequest, fleetTimeZone: string): [string, string][] {
  const at = instantInBothZones(Date.parse(request.requestedAt), fleetTimeZone);
  return [
    ["Reason given", escapeHtml(request.reason)],
    ["Requested", `by ${escapeHtml(request.requestedBy)} at ${escapeHtml(at.utc)} (${escapeHtml(at.fleet)})`],
  ];
}
