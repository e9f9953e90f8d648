import { escapeHtml, instantInBothZones, rangeInBothZones } from "@fleet-alerts/core/evidence/report";
import type { incidentPaths } from "./incident-paths.js";
import type { Incident, IncidentClip, IncidentEvidence } from "./ports.js";

/** Evidence status; once stored, each clip as a player through the app (which presigns it) with its SHA-256, and the claim pack. */
export function evidenceSection(incident: Incident, paths: ReturnType<typeof incidentPaths>): string {
  const { evidence } = incident;
  let body: string;
  switch (evidence.status) {
    case "pending":
      body = `<p>Evidence: <strong>pending</strong>. The video is being fetched from the vehicle; open this link again later.</p>`;
      break;
    case "waiting":
      body = waitingParagraph(evidence, incident.fleetTimeZone);
      break;
    case "not-requested":
      body = `<p>Evidence: <strong>none</strong>. The rule that raised this alert asks for no video.</p>`;
      break;
    case "unavailable":
      body = `<p>Evidence: <strong>unavailable</strong>. ${escapeHtml(evidence.reason)}</p>`;
      break;
    case "stored":
      body = `<p>Evidence: <strong>stored</strong>. Each file's SHA-256 is the one recorded when it was stored.</p>
${evidence.clips.map((clip, index) => clipFigure(clip, paths.clip(index), incident.fleetTimeZone)).join("\n")}
<p><a href="${escapeHtml(paths.pack)}">Download the claim pack</a> (the evidence with its custody record, for an insurer).</p>`;
      break;
  }
  return `<section id="evidence">
<h2>Video</h2>
${body}
</section>`;
}

/**
 * The footage is still on the card of a vehicle that is offline: since when, and until when the card
 * keeps it (the stage's longest wait when its retention is unknown), in the fleet's zone and UTC.
 */
function waitingParagraph(
  evidence: Extract<IncidentEvidence, { status: "waiting" }>,
  timeZone: string,
): string {
  const since = instantInBothZones(evidence.offlineSinceMs, timeZone);
  const until = instantInBothZones(evidence.keptUntilMs, timeZone);
  const kept =
    evidence.retentionDays === null
      ? `the card's retention is not known: waited for until ${until.fleet}`
      : `kept on the card until about ${until.fleet}`;
  return `<p>Evidence: <strong>waiting for the vehicle to come online</strong> (offline since ${escapeHtml(since.fleet)}; ${escapeHtml(kept)}). The video is fetched as soon as the vehicle is back online; open this link again later.</p>
<p>UTC: offline since ${escapeHtml(since.utc)}; until ${escapeHtml(until.utc)}.</p>`;
}

function clipFigure(clip: IncidentClip, source: string, timeZone: string): string {
  const range = rangeInBothZones(clip.startMs, clip.endMs, timeZone);
  const part = clip.part > 0 ? `, part ${clip.part + 1}` : "";
  return `<figure class="clip">
<video controls preload="metadata" src="${escapeHtml(source)}"></video>
<figcaption><strong>Channel ${clip.channel}${part}</strong> · ${escapeHtml(range.utc)} · ${escapeHtml(range.fleet)}<br>
SHA-256 <code class="digest">${escapeHtml(clip.sha256)}</code> · ${clip.bytes} bytes</figcaption>
</figure>`;
}
