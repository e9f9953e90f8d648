/** Distances on the earth's surface, for tracks of a few kilometres: a sphere is exact enough. */

const EARTH_RADIUS_METERS = 6_371_008.8;

export interface LatLng {
  lat: number;
  lng: number;
}

/** Great-circle (haversine) distance in metres. */
export function distanceMeters(from: LatLng, to: LatLng): number {
  const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = toRadians(to.lat - from.lat);
  const dLng = toRadians(to.lng - from.lng);
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(from.lat)) * Math.cos(toRadians(to.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The length of a path through the points, in metres. */
export function pathMeters(points: readonly LatLng[]): number {
  let meters = 0;
  for (let i = 1; i < points.length; i++)
    meters += distanceMeters(points[i - 1] as LatLng, points[i] as LatLng);
  return meters;
}

/**
 * Whether a coordinate can be a vehicle's position: within range, and not 0/0, which receivers
 * without a fix write (a vehicle in the Gulf of Guinea at exactly 0/0 is far less likely).
 */
export function isPlausible({ lat, lng }: LatLng): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180 &&
    !(lat === 0 && lng === 0)
  );
}
