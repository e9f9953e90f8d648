import { fc, test } from "@fast-check/vitest";
import { displayName } from "@fleet-alerts/core/text";
import { describe, expect } from "vitest";
import { renderIncidentPage } from "../../../packages/functions/src/incident/incident-page.js";
import { incidentPaths } from "../../../packages/functions/src/incident/incident-paths.js";
import { storedIncident } from "../../support/fakes/incident.js";
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
  acknowledgeable: fc.boolean(),
});

function pageFor({ vehicle, driver, deviceid }: Sent, allowed = true): string {
  const incident = storedIncident();
  return renderIncidentPage(
    { ...incident, event: { ...incident.event, vehicle, driver, deviceid } },
    // A short token: the run's output is watched for share-link tokens.
    incidentPaths("tok"),
    { allowed, proof: "proof" },
  );
}

/** A benign name that shows, or shows nothing, as the sent one does. */
const twin = (text: string | undefined, shows: string, blank: string) =>
  text === undefined ? undefined : displayName(text) === undefined ? blank : shows;

/** The heading's text after the event's name: the vehicle, else the device. */
function headingName(html: string): string {
  const heading = /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? "";
  return heading.slice(heading.indexOf(" · ") + " · ".length);
}

describe("the incident page, whatever the device cloud calls the vehicle, driver and device", () => {
  test.prop([sent], { numRuns: 1000 })(
    "has the elements of the page with benign names, and no element from data",
    (names) => {
      const benign = pageFor(
        {
          vehicle: twin(names.vehicle, "v", ""),
          driver: twin(names.driver, "v", ""),
          deviceid: displayName(names.deviceid) === undefined ? " " : "d",
        },
        names.acknowledgeable,
      );
      expect(tagsOf(pageFor(names, names.acknowledgeable))).toEqual(tagsOf(benign));
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "names the vehicle, or else the device, in its heading: never nothing",
    (names) => {
      expect(headingName(pageFor(names))).toMatch(VISIBLE);
    },
  );

  test.prop([sent], { numRuns: 1000 })(
    "has a heading with nothing that acts instead of showing (no line break, bidi control, noncharacter)",
    (names) => {
      expect(headingName(pageFor(names))).not.toMatch(ACTS_NOT_SHOWS);
    },
  );
});
