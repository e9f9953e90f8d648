import type { LineParts } from "../../text/fit.js";
import { nonEmpty } from "../../text/words.js";
import type { AlertFacts } from "../facts.js";

/**
 * Vehicle and driver in a restricted alphabet, for the one-line channels; the device id stands in
 * for a vehicle whose name is missing or has no letter the alphabet keeps.
 */
export function whoIn(
  facts: AlertFacts,
  alphabet: (text: string) => string,
): Pick<LineParts, "name" | "aside"> {
  const vehicle = nonEmpty(alphabet(facts.vehicle ?? "")) ?? `device ${alphabet(facts.deviceid)}`;
  return { name: vehicle, aside: nonEmpty(alphabet(facts.driver ?? "")) };
}
