import { distanceMeters, type LatLng } from "../../context/geodesy.js";

/** An SVG viewBox from 0,0 and the margin kept clear around what is drawn. */
export interface MapFrame {
  width: number;
  height: number;
  margin: number;
}

export interface MapProjection {
  /** SVG user units, y down. */
  project(position: LatLng): { x: number; y: number };
  /** Ground metres one user unit spans, the same across and up (what the scale bar is drawn from). */
  metresPerUnit: number;
}

// On the sphere geodesy.ts measures with, so the scale bar agrees with the distances the evidence states.
const METRES_PER_DEGREE = distanceMeters({ lat: 0, lng: 0 }, { lat: 1, lng: 0 });
/**
 * The least ground span a map shows: a parked vehicle's GPS jitter of a few metres would otherwise
 * fill the map like a drive (the scale bar still tells), and one point has no span at all.
 */
export const MIN_MAP_SPAN_METRES = 100;

/**
 * Equirectangular projection about the positions' middle latitude (longitudes shrunk by its cosine,
 * so a metre is as long across as up over a few kilometres), scaled to fit the frame inside its
 * margin and centred. Tracks that cross the antimeridian are not handled (a fleet's minutes never do).
 */
export function fitProjection(positions: readonly LatLng[], frame: MapFrame): MapProjection {
  const lats = positions.map((position) => position.lat);
  const lngs = positions.map((position) => position.lng);
  const [south, north, west, east] = [
    Math.min(...lats),
    Math.max(...lats),
    Math.min(...lngs),
    Math.max(...lngs),
  ];
  const middleLat = (south + north) / 2;
  const middleLng = (west + east) / 2;
  const metresPerDegreeLng = METRES_PER_DEGREE * Math.cos((middleLat * Math.PI) / 180);
  const spanAcross = Math.max((east - west) * metresPerDegreeLng, MIN_MAP_SPAN_METRES);
  const spanUp = Math.max((north - south) * METRES_PER_DEGREE, MIN_MAP_SPAN_METRES);
  const unitsPerMetre = Math.min(
    (frame.width - 2 * frame.margin) / spanAcross,
    (frame.height - 2 * frame.margin) / spanUp,
  );
  return {
    project: ({ lat, lng }) => ({
      x: frame.width / 2 + (lng - middleLng) * metresPerDegreeLng * unitsPerMetre,
      y: frame.height / 2 - (lat - middleLat) * METRES_PER_DEGREE * unitsPerMetre,
    }),
    metresPerUnit: 1 / unitsPerMetre,
  };
}
