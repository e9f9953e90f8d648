import { escapeHtml, relativeUrl } from "./markup.js";
import type { ClaimReportModel, ReportClip } from "./model.js";
import { rangeInBothZones } from "./report-times.js";

/** Each clip as a player of the file beside this report, with its channel and the span it covers. */
export function clipsSection(model: ClaimReportModel): string {
  const clips = model.clips.map((clip) => clipFigure(clip, model.fleetTimeZone));
  return `<section id="clips">
<h2>Video</h2>
${clips.length > 0 ? clips.join("\n") : `<p class="absent">No clip was stored (see what is missing below).</p>`}
</section>`;
}

function clipFigure(clip: ReportClip, timeZone: string): string {
  const range = rangeInBothZones(clip.startMs, clip.endMs, timeZone);
  const part = clip.part > 0 ? `, part ${clip.part + 1}` : "";
  const duration =
    clip.mp4DurationMs === undefined
      ? ""
      : ` · ${(clip.mp4DurationMs / 1000).toFixed(1)} s by its MP4 header`;
  return `<figure class="clip">
<video controls preload="metadata" src="${escapeHtml(relativeUrl(clip.path))}"></video>
<figcaption><strong>Channel ${clip.channel}${part}</strong> · <code>${escapeHtml(clip.path)}</code>${duration}<br>
${escapeHtml(range.utc)}<br>
${escapeHtml(range.fleet)}</figcaption>
</figure>`;
}
