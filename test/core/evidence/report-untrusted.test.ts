import { fc, test } from "@fast-check/vitest";
import { type ClaimReportModel, renderClaimReport } from "@fleet-alerts/core/evidence";
import { displayName } from "@fleet-alerts/core/text";
import { describe, expect } from "vitest";
import { claimReportModel } from "../../support/claim-report-model.js";
import {
  ACTS_NOT_SHOWS,
  blankString,
  deviceIdArbitrary,
  invisibleString,
  tagsOf,
  untrustedString,
  VISIBLE,
} from "../../support/untrusted-strings.js";

interface Sent {
  vehicle: string | undefined;
  driver: string | undefined;
  deviceid: string;
}

const sent = fc.record({
  // Blank and invisible names too: the heading must then name the device.
  vehicle: fc.option(fc.oneof(untrustedString(), blankString(), invisibleString()), { nil: undefined }),
  driver: fc.option(untrustedString(), { nil: undefined }),
  deviceid: deviceIdArbitrary(),
});

function reportFor({ vehicle, driver, deviceid }: Sent): string {
  const model: ClaimReportModel = claimReportModel();
  model.event = { ...model.event, vehicle, driver, deviceid };
  return renderClaimReport(model);
}

/** A benign name that shows, or shows nothing, as the sent one does. */
const twin = (text: string | undefined, shows: string, blank: string) =>
  text === undefined ? undefined : displayName(text) === undefined ? blank : shows;

/** The heading's text after the event's name: the vehicle, else the device. */
function headingName(html: string): string {
  const heading = /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? "";
  return heading.slice(heading.indexOf(" · ") + " · ".length);
}

describe("the claim report, whatever the device cloud calls the vehicle, driver and device", () => {
  test.prop([sent], { numRuns: 1000 })(
    "has the elements of the report with benign names, and no element from data",
    (names) => {
      const benign = reportFor({
        vehicle: twin(names.vehicle, "v", ""),
        driver: twin(names.driver, "v", ""),
        deviceid: displayName(names.deviceid) === undefined ? " " : "d",
      });
      expect(tagsOf(reportFor(names))).toEqual(tagsOf(benign));
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "names the vehicle, or else the device, in its heading: never nothing",
    (names) => {
      expect(headingName(reportFor(names))).toMatch(VISIBLE);
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "has a heading with nothing that acts instead of showing (no line break, bidi control, noncharacter)",
    (names) => {
      expect(headingName(reportFor(names))).not.toMatch(ACTS_NOT_SHOWS);
    },
  );
});
