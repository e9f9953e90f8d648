import { isPlausible, type LatLng } from "../../context/geodesy.js";
import { escapeHtml } from "./markup.js";
import type { ClaimReportModel, ReportTrackPoint } from "./model.js";
import { openStreetMapUrl, trackMapSvg } from "./track-map-svg.js";

/** Where the map marks the event: the model's position, else the track point nearest the event time. */
export function eventPositionOnMap(
  model: ClaimReportModel,
  track: readonly ReportTrackPoint[],
): LatLng | undefined {
  if (model.position) return model.position;
  const distance = (point: ReportTrackPoint) => Math.abs(point.timeMs - model.event.eventMs);
  return track.reduce<ReportTrackPoint | undefined>(
    (nearest, point) => (nearest === undefined || distance(point) < distance(nearest) ? point : nearest),
    undefined,
  );
}

/** The track as a map, or a sentence saying why there is none; a link to the event position on OpenStreetMap. */
export function trackSection(model: ClaimReportModel): string {
  const track = model.track.status === "stored" ? model.track.points.filter(isPlausible) : [];
  const event = eventPositionOnMap(model, track);
  const link = event
    ? `<p><a href="${escapeHtml(openStreetMapUrl(event))}" rel="noreferrer noopener">The event position on OpenStreetMap</a> (a link to follow; this report loads no map tiles).</p>`
    : "";
  let body: string;
  if (model.track.status === "unavailable") {
    body = `<p class="absent">No track: ${escapeHtml(model.track.reason)}</p>`;
  } else if (track.length === 0 || event === undefined) {
    body = `<p class="absent">The track over the window holds no usable position.</p>`;
  } else {
    const marked = model.position ? "the vehicle at the event" : "the track point nearest the event time";
    body = `<figure>
${trackMapSvg(track, event)}
<figcaption>${track.length} GPS point${track.length === 1 ? "" : "s"} over the evidence window. Blue line: the path, from the hollow dot (the window's start). Red ring: ${marked}. North is up.</figcaption>
</figure>`;
  }
  return `<section id="track">
<h2>Track</h2>
${body}
${link}
</section>`;
}
