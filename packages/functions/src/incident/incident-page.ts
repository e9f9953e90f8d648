import { vehicleOrDevice } from "@fleet-alerts/core/text";
import { type AcknowledgeFormState, acknowledgeSection } from "./acknowledge-section.js";
import { eventSection } from "./event-section.js";
import { evidenceSection } from "./evidence-section.js";
import { historySection } from "./history-section.js";
import type { incidentPaths } from "./incident-paths.js";
import { pageDocument } from "./page-document.js";
import type { Incident } from "./ports.js";
import { trackAndSpeedSection } from "./track-and-speed-section.js";

/** The incident page (pure): facts first, then what to do, then the evidence and what happened since. */
export function renderIncidentPage(
  incident: Incident,
  paths: ReturnType<typeof incidentPaths>,
  form: Omit<AcknowledgeFormState, "action">,
): string {
  const { event } = incident;
  return pageDocument(
    `${event.name}, ${vehicleOrDevice(event.vehicle, event.deviceid)}`,
    [
      eventSection(incident),
      acknowledgeSection(incident, { ...form, action: paths.acknowledge }),
      trackAndSpeedSection(incident),
      evidenceSection(incident, paths),
      historySection(incident),
    ]
      .filter((section) => section !== "")
      .join("\n"),
  );
}
