import { fc } from "@fast-check/vitest";
import { displayName } from "@fleet-alerts/core/text";
import { blankString, deviceIdArbitrary, invisibleString, untrustedString } from "./untrusted-strings.js";

/** What the device cloud calls an event's vehicle, driver and device, as a page or report gets them. */
export interface EventNames {
  vehicle: string | undefined;
  driver: string | undefined;
  deviceid: string;
}

/** Names of every kind, blank and invisible vehicle names too: the heading must then name the device. */
export function eventNames(): fc.Arbitrary<EventNames> {
  return fc.record({
    vehicle: fc.option(fc.oneof(untrustedString(), blankString(), invisibleString()), { nil: undefined }),
    driver: fc.option(untrustedString(), { nil: undefined }),
    deviceid: deviceIdArbitrary(),
  });
}

/** Benign names that show, or show nothing, as the sent ones do: the same page but for the names. */
export function benignTwin(names: EventNames): EventNames {
  const twin = (text: string | undefined) =>
    text === undefined ? undefined : displayName(text) === undefined ? "" : "v";
  return {
    vehicle: twin(names.vehicle),
    driver: twin(names.driver),
    deviceid: displayName(names.deviceid) === undefined ? " " : "d",
  };
}

/** The heading's text after the event's name: the vehicle, else the device. */
export function headingName(html: string): string {
  const heading = /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? "";
  return heading.slice(heading.indexOf(" · ") + " · ".length);
}
