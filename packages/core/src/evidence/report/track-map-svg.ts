import type { LatLng } from "../../context/geodesy.js";
import { fitProjection, type MapFrame } from "./map-projection.js";
import { svgNumber } from "./markup.js";
import { roundNumberAtMost } from "./round-numbers.js";

const FRAME: MapFrame = { width: 640, height: 400, margin: 36 };
/** The scale bar is at most this share of the drawable width. */
const SCALE_BAR_SHARE = 0.25;

/** A scale bar of a round ground distance no longer than `maxUnits` on the map. */
export function scaleBar(
  metresPerUnit: number,
  maxUnits: number,
): { metres: number; units: number; label: string } {
  const metres = roundNumberAtMost(maxUnits * metresPerUnit);
  return {
    metres,
    units: metres / metresPerUnit,
    label: metres >= 1000 ? `${metres / 1000} km` : `${metres} m`,
  };
}

/**
 * The track as an SVG map (pure): the path through the points, its start, the vehicle at the
 * event, a north arrow (north is up in this projection) and a scale bar. `track` is not empty.
 */
export function trackMapSvg(track: readonly LatLng[], event: LatLng): string {
  const projection = fitProjection([...track, event], FRAME);
  const at = (position: LatLng) => {
    const { x, y } = projection.project(position);
    return { x: svgNumber(x), y: svgNumber(y) };
  };
  const path = track.map((position) => {
    const { x, y } = at(position);
    return `${x},${y}`;
  });
  const start = at(track[0] as LatLng);
  const marker = at(event);
  return [
    `<svg class="track-map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${FRAME.width} ${FRAME.height}" role="img" aria-label="Map of the track over the evidence window">`,
    `<rect width="${FRAME.width}" height="${FRAME.height}" fill="#f7f7f4" stroke="#999"/>`,
    `<polyline class="track" points="${path.join(" ")}" fill="none" stroke="#1f5fa8" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>`,
    `<circle class="track-start" cx="${start.x}" cy="${start.y}" r="5" fill="#fff" stroke="#1f5fa8" stroke-width="2"/>`,
    `<circle class="event-marker" cx="${marker.x}" cy="${marker.y}" r="9" fill="none" stroke="#c0262d" stroke-width="3"/>`,
    `<circle cx="${marker.x}" cy="${marker.y}" r="2.5" fill="#c0262d"/>`,
    northArrow(FRAME.width - 28, 20),
    scaleBarSvg(scaleBar(projection.metresPerUnit, (FRAME.width - 2 * FRAME.margin) * SCALE_BAR_SHARE)),
    "</svg>",
  ].join("\n");
}

function northArrow(x: number, top: number): string {
  return [
    `<g class="north-arrow" aria-label="North is up">`,
    `<path d="M${x} ${top} l8 22 l-8 -6 l-8 6 z" fill="#333"/>`,
    `<text x="${x}" y="${top + 38}" text-anchor="middle" font-size="13" font-family="sans-serif" fill="#333">N</text>`,
    "</g>",
  ].join("");
}

function scaleBarSvg({ units, label }: { units: number; label: string }): string {
  const left = FRAME.margin;
  const y = FRAME.height - 16;
  const right = svgNumber(left + units);
  return [
    `<g class="scale-bar" stroke="#333" stroke-width="2">`,
    `<path d="M${left} ${y - 6} V${y} H${right} V${y - 6}" fill="none"/>`,
    `<text x="${svgNumber(left + units + 8)}" y="${y}" stroke="none" fill="#333" font-size="13" font-family="sans-serif">${label}</text>`,
    "</g>",
  ].join("");
}

/** The event position on OpenStreetMap: a link the reader may follow; the report itself loads no tile. */
export function openStreetMapUrl({ lat, lng }: LatLng): string {
  const [mlat, mlon] = [lat.toFixed(6), lng.toFixed(6)];
  return `https://www.openstreetmap.org/?mlat=${mlat}&mlon=${mlon}#map=16/${mlat}/${mlon}`;
}
