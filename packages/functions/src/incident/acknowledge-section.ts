import { escapeHtml, instantInBothZones } from "@fleet-alerts/core/evidence/report";
import type { Incident } from "./ports.js";

export interface AcknowledgeFormState {
  /** The link's scope allows acknowledging. */
  allowed: boolean;
  action: string;
  proof: string;
}

/** Who acknowledged and when; else the form, when the link may acknowledge; else nothing. */
export function acknowledgeSection(incident: Incident, form: AcknowledgeFormState): string {
  const { acknowledgement } = incident;
  if (acknowledgement) {
    const at = instantInBothZones(acknowledgement.atMs, incident.fleetTimeZone);
    const note = acknowledgement.note ? `<p>Note: ${escapeHtml(acknowledgement.note)}</p>` : "";
    return `<section id="acknowledgement" class="acknowledged">
<h2>Acknowledgement</h2>
<p>Acknowledged by <strong>${escapeHtml(acknowledgement.by)}</strong> at ${escapeHtml(at.utc)} (${escapeHtml(at.fleet)}).</p>
${note}
</section>`;
  }
  if (!form.allowed) return "";
  return `<section id="acknowledgement">
<h2>Acknowledge</h2>
<p>Tell the team this alert is being handled; pending escalations stop.</p>
<form class="acknowledge" method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="proof" value="${escapeHtml(form.proof)}">
<label>Your name <input name="name" required maxlength="80" autocomplete="name"></label>
<label>Note (optional) <textarea name="note" maxlength="500" rows="3"></textarea></label>
<button type="submit">Acknowledge</button>
</form>
</section>`;
}
