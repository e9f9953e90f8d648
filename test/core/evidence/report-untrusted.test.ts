import { test } from "@fast-check/vitest";
import { type ClaimReportModel, renderClaimReport } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";
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

describe("the example of a blank vehicle name", () => {
  it("heads the report with the device id when the vehicle's name is only blanks and controls", () => {
    const html = reportFor({ vehicle: " \t\u0000\u200b ", driver: undefined, deviceid: "0012345678" });
    expect(/<h1>([^<]*)<\/h1>/.exec(html)?.[1]).toBe("OverSpeed · 0012345678");
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toMatch(/^Claim report: OverSpeed, 0012345678, /);
  });
});
