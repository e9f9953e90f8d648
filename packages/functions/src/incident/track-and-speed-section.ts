import { isPlausible } from "@fleet-alerts/core/context";
import { escapeHtml, openStreetMapUrl, speedChartSvg, trackMapSvg } from "@fleet-alerts/core/evidence/report";
import type { Incident } from "./ports.js";

/** The track map and the speed chart, drawn by the claim report's renderers; sentences when there is nothing to draw. */
export function trackAndSpeedSection(incident: Incident): string {
  const track = incident.track.filter(isPlausible);
  const event = incident.position ?? nearestToEvent(track, incident.event.eventMs);
  const map =
    track.length > 0 && event !== undefined
      ? `<figure>
${trackMapSvg(track, event)}
<figcaption>${track.length} GPS point${track.length === 1 ? "" : "s"}. Blue line: the path, from the hollow dot. Red ring: the vehicle at the event. North is up.</figcaption>
</figure>`
      : `<p class="absent">No track yet${incident.evidence.status === "pending" ? ": it comes with the evidence." : "."}</p>`;
  const link = event
    ? `<p><a href="${escapeHtml(openStreetMapUrl(event))}" rel="noreferrer noopener">The event position on OpenStreetMap</a></p>`
    : "";
  const hasSpeed = incident.window !== undefined && track.some((point) => point.speedKmh !== null);
  const chart =
    hasSpeed && incident.window
      ? `<figure>
${speedChartSvg({
  points: track,
  window: incident.window,
  eventMs: incident.event.eventMs,
  ...(incident.speedLimitKmh !== undefined && { limitKmh: incident.speedLimitKmh }),
})}
<figcaption>Speed from the GPS track, km/h. Red line: the event.</figcaption>
</figure>`
      : `<p class="absent">No speed over the evidence window.</p>`;
  return `<section id="track">
<h2>Track</h2>
${map}
${link}
</section>
<section id="speed">
<h2>Speed</h2>
${chart}
</section>`;
}

/** Where the map marks the event without a position: the plausible track point nearest the event time. */
function nearestToEvent(track: Incident["track"], eventMs: number): Incident["track"][number] | undefined {
  const distance = (point: { timeMs: number }) => Math.abs(point.timeMs - eventMs);
  return track.reduce<Incident["track"][number] | undefined>(
    (nearest, point) => (nearest === undefined || distance(point) < distance(nearest) ? point : nearest),
    undefined,
  );
}
