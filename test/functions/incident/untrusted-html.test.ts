import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { renderIncidentPage } from "../../../packages/functions/src/incident/incident-page.js";
import { incidentPaths } from "../../../packages/functions/src/incident/incident-paths.js";
import { storedIncident } from "../../support/fakes/incident.js";
import { benignTwin, type EventNames, eventNames, headingName } from "../../support/untrusted-html.js";
import { ACTS_NOT_SHOWS, tagsOf, VISIBLE } from "../../support/untrusted-strings.js";

function pageFor({ vehicle, driver, deviceid }: EventNames, allowed = true): string {
  const incident = storedIncident();
  return renderIncidentPage(
    { ...incident, event: { ...incident.event, vehicle, driver, deviceid } },
    // A short token: the run's output is watched for share-link tokens.
    incidentPaths("tok"),
    { allowed, proof: "proof" },
  );
}

describe("the incident page, whatever the device cloud calls the vehicle, driver and device", () => {
  test.prop([eventNames(), fc.boolean()], { numRuns: 1000 })(
    "has the elements of the page with benign names, and no element from data",
    (names, acknowledgeable) => {
      expect(tagsOf(pageFor(names, acknowledgeable))).toEqual(
        tagsOf(pageFor(benignTwin(names), acknowledgeable)),
      );
    },
  );

  test.prop([eventNames()], { numRuns: 1000 })(
    "names the vehicle, or else the device, in its heading: never nothing",
    (names) => {
      expect(headingName(pageFor(names))).toMatch(VISIBLE);
    },
  );

  test.prop([eventNames()], { numRuns: 1000 })(
    "has a heading with nothing that acts instead of showing (no line break, bidi control, noncharacter)",
    (names) => {
      expect(headingName(pageFor(names))).not.toMatch(ACTS_NOT_SHOWS);
    },
  );
});
