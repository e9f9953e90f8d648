import { escapeHtml } from "./markup.js";
import type { ClaimReportModel } from "./model.js";
import { instantInBothZones } from "./report-times.js";
import { speedChartSvg } from "./speed-chart-svg.js";

/** Speed over the window as a chart, or a sentence when the track holds no speed. */
export function speedSection(model: ClaimReportModel): string {
  const points = model.track.status === "stored" ? model.track.points : [];
  let body: string;
  if (!points.some((point) => point.speedKmh !== null)) {
    body = `<p class="absent">No speed over the window: ${
      model.track.status === "unavailable" ? "there is no track." : "no GPS point states one."
    }</p>`;
  } else {
    const at = instantInBothZones(model.event.eventMs, model.fleetTimeZone);
    const chart = { points, window: model.window, eventMs: model.event.eventMs };
    const limit = model.speedLimitKmh === undefined ? "" : ` Dashed line: the limit the event states.`;
    body = `<figure>
${speedChartSvg(model.speedLimitKmh === undefined ? chart : { ...chart, limitKmh: model.speedLimitKmh })}
<figcaption>Speed from the GPS track, km/h; the line breaks where a point states no speed. Red line: the event, at ${escapeHtml(at.utc)} (${escapeHtml(at.fleet)}).${limit}</figcaption>
</figure>`;
  }
  return `<section id="speed">
<h2>Speed</h2>
${body}
</section>`;
}
