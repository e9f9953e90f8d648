import { vehicleOrDevice } from "../../text/display.js";
import { utcTime } from "../../text/fleet-clock.js";
import { clipsSection } from "./clips-section.js";
import { custodySection } from "./custody-section.js";
import { eventSection } from "./event-section.js";
import { filesSection } from "./files-section.js";
import { htmlDocument } from "./html-document.js";
import { missingSection } from "./missing-section.js";
import type { ClaimReportModel } from "./model.js";
import { REPORT_STYLE } from "./report-style.js";
import { speedSection } from "./speed-section.js";
import { trackSection } from "./track-section.js";
import { timestampSection, verificationSection } from "./verification-section.js";

/**
 * `report.html` of the claim pack (pure, deterministic): one self-contained page an insurer opens
 * from the bag's folder or prints; no script, nothing from any other host, every text from the
 * model escaped.
 */
export function renderClaimReport(model: ClaimReportModel): string {
  const { event } = model;
  return htmlDocument({
    title: `Claim report: ${event.name}, ${vehicleOrDevice(event.vehicle, event.deviceid)}, ${utcTime(event.eventMs)}`,
    policy: "report",
    style: REPORT_STYLE,
    body: [
      eventSection(model),
      trackSection(model),
      speedSection(model),
      clipsSection(model),
      missingSection(model),
      filesSection(model),
      custodySection(model),
      timestampSection(model),
      verificationSection(model),
    ]
      .filter((section) => section !== "")
      .join("\n"),
  });
}
