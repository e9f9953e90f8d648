import { escapeHtml, instantInBothZones } from "@fleet-alerts/core/evidence/report";
import type { Incident } from "./ports.js";

/**
 * What happened to the alert since, in time order: published, escalated, evidence stored,
 * acknowledged. Each happens once (a level once per level), so the list is never longer than
 * 3 + MAX_ESCALATION_LEVELS lines, however long the alert is kept: nothing here needs paging.
 */
export function historySection(incident: Incident): string {
  const at = (ms: number) => {
    const both = instantInBothZones(ms, incident.fleetTimeZone);
    return `${escapeHtml(both.utc)} (${escapeHtml(both.fleet)})`;
  };
  const entries: { atMs: number; text: string }[] = [];
  if (incident.publishedAtMs !== undefined)
    entries.push({ atMs: incident.publishedAtMs, text: "Alert published" });
  for (const escalation of incident.escalations)
    entries.push({ atMs: escalation.atMs, text: `Escalated to level ${escalation.level}` });
  if (incident.evidence.status === "stored")
    entries.push({ atMs: incident.evidence.storedAtMs, text: "Evidence stored" });
  const { acknowledgement } = incident;
  if (acknowledgement)
    entries.push({ atMs: acknowledgement.atMs, text: `Acknowledged by ${escapeHtml(acknowledgement.by)}` });
  entries.sort((a, b) => a.atMs - b.atMs);
  const items = entries.map((entry) => `<li>${at(entry.atMs)}: ${entry.text}</li>`);
  return `<section id="history">
<h2>History</h2>
${items.length > 0 ? `<ol>\n${items.join("\n")}\n</ol>` : `<p class="absent">Nothing yet.</p>`}
</section>`;
}
