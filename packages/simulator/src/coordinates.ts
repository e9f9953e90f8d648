/**
 * How the service writes an event's vehiclex/vehicley (SimulatorOptions.eventCoordinates). The
 * spec only says they are nullable, so a client has to cope with numbers, decimal strings, and no
 * position at all, when it must fall back to the GPS history.
 */
import type { EventDetails } from "./eventlog.js";

export const EVENT_COORDINATES = ["numbers", "strings", "null"] as const;
export type EventCoordinates = (typeof EVENT_COORDINATES)[number];

/** A device event's details as the service logs them: the device's numbers, written the chosen way. */
export function writeCoordinates(
  details: Partial<EventDetails>,
  mode: EventCoordinates,
): Partial<EventDetails> {
  const { vehiclex, vehicley } = details;
  if (mode === "null") return { ...details, vehiclex: null, vehicley: null };
  if (mode === "numbers" || typeof vehiclex !== "number" || typeof vehicley !== "number") return details;
  return { ...details, vehiclex: vehiclex.toFixed(6), vehicley: vehicley.toFixed(6) };
}
