import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import { isPlausible, type LatLng } from "./geodesy.js";

/**
 * The event's own position, from `vehiclex` and `vehicley`, when they make a plausible coordinate.
 *
 * Which is which: the spec names neither, but calls them x and y, as it does a geofence's
 * `centerx`/`centery`; x is the east-west axis of a map, so `vehiclex` is read as the longitude and
 * `vehicley` as the latitude (the order GeoJSON and most GIS tools use). Their type is not shown
 * either: JSON numbers and decimal strings are accepted; null, empty, 0/0 and out-of-range are not.
 */
export function eventCoordinates(event: Pick<DeviceEvent, "vehiclex" | "vehicley">): LatLng | undefined {
  const lng = coordinateOf(event.vehiclex);
  const lat = coordinateOf(event.vehicley);
  if (lat === undefined || lng === undefined) return undefined;
  const position = { lat, lng };
  return isPlausible(position) ? position : undefined;
}

const DECIMAL = /^\s*[-+]?\d+(\.\d+)?\s*$/;

function coordinateOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && DECIMAL.test(value)) return Number(value);
  return undefined;
}
