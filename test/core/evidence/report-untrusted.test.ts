import { test } from "@fast-check/vitest";
import { type ClaimReportModel, renderClaimReport } from "@fleet-alerts/core/evidence";
import { describe, expect } from "vitest";
import { claimReportModel } from "../../support/claim-report-model.js";
import { benignTwin, type EventNames, eventNames, headingName } from "../../support/untrusted-html.js";
import { ACTS_NOT_SHOWS, tagsOf, VISIBLE } from "../../support/untrusted-strings.js";

function reportFor({ vehicle, driver, deviceid }: EventNames): string {
  const model: ClaimReportModel = claimReportModel();
  model.event = { ...model.event, vehicle, driver, deviceid };
  return renderClaimReport(model);
}

describe("the claim report, whatever the device cloud calls the vehicle, driver and device", () => {
  test.prop([eventNames()], { numRuns: 1000 })(
    "has the elements of the report with benign names, and no element from data",
    (names) => {
      expect(tagsOf(reportFor(names))).toEqual(tagsOf(reportFor(benignTwin(names))));
    },
  );

  test.prop([eventNames()], { numRuns: 1000 })(
    "names the vehicle, or else the device, in its heading: never nothing",
    (names) => {
      expect(headingName(reportFor(names))).toMatch(VISIBLE);
    },
  );

  test.prop([eventNames()], { numRuns: 1000 })(
    "has a heading with nothing that acts instead of showing (no line break, bidi control, noncharacter)",
    (names) => {
      expect(headingName(reportFor(names))).not.toMatch(ACTS_NOT_SHOWS);
    },
  );
});
