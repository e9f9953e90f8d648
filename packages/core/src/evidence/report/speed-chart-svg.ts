import { svgNumber } from "./markup.js";
import type { ReportTrackPoint } from "./model.js";
import { roundNumberAtLeast } from "./round-numbers.js";

const WIDTH = 640;
const HEIGHT = 260;
const PLOT = { left: 56, right: WIDTH - 16, top: 16, bottom: HEIGHT - 48 };
/** At most this many steps between ticks on each axis (round steps leave fewer). */
const TICKS_WANTED = 5;
/** A standing vehicle still gets a readable axis (and whole-number ticks). */
const LEAST_TOP_KMH = 10;
const FONT = `font-size="12" font-family="sans-serif" fill="#333"`;

export interface SpeedChart {
  points: readonly ReportTrackPoint[];
  window: { startMs: number; endMs: number };
  eventMs: number;
  limitKmh?: number;
}

/**
 * Speed over the evidence window as an SVG chart (pure): x in seconds from the event, y in km/h
 * from 0 with round ticks; the line breaks where a point has no speed; the event is a vertical
 * line, the limit (when stated) a horizontal one.
 */
export function speedChartSvg({ points, window, eventMs, limitKmh }: SpeedChart): string {
  const inWindow = points.filter((point) => point.timeMs >= window.startMs && point.timeMs <= window.endMs);
  const speeds = inWindow.flatMap((point) => (point.speedKmh === null ? [] : [point.speedKmh]));
  const highest = Math.max(...speeds, limitKmh ?? 0, LEAST_TOP_KMH);
  const yStep = roundNumberAtLeast(highest / TICKS_WANTED);
  const yTop = yStep * Math.ceil(highest / yStep);
  const x = (timeMs: number) =>
    PLOT.left + ((timeMs - window.startMs) / (window.endMs - window.startMs)) * (PLOT.right - PLOT.left);
  const y = (kmh: number) => PLOT.bottom - (kmh / yTop) * (PLOT.bottom - PLOT.top);
  const parts = [
    `<svg class="speed-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Speed over the evidence window, km/h">`,
    yAxis(yStep, yTop, y),
    xAxis(window, eventMs, x),
  ];
  if (limitKmh !== undefined) {
    parts.push(
      `<line class="speed-limit" x1="${PLOT.left}" x2="${PLOT.right}" y1="${svgNumber(y(limitKmh))}" y2="${svgNumber(y(limitKmh))}" stroke="#c0262d" stroke-width="1.5" stroke-dasharray="6 4"/>`,
      `<text x="${PLOT.right}" y="${svgNumber(y(limitKmh) - 5)}" text-anchor="end" ${FONT}>limit ${limitKmh} km/h</text>`,
    );
  }
  parts.push(speedLine(inWindow, x, y));
  if (eventMs >= window.startMs && eventMs <= window.endMs) {
    const eventX = svgNumber(x(eventMs));
    parts.push(
      `<line class="event-line" x1="${eventX}" x2="${eventX}" y1="${PLOT.top}" y2="${PLOT.bottom}" stroke="#c0262d" stroke-width="2"/>`,
      `<text x="${eventX}" y="${PLOT.top - 4}" text-anchor="middle" ${FONT}>event</text>`,
    );
  }
  parts.push("</svg>");
  return parts.join("\n");
}

/** One path through the runs of points that have a speed; a run of one point is a dot. */
function speedLine(
  points: readonly ReportTrackPoint[],
  x: (timeMs: number) => number,
  y: (kmh: number) => number,
): string {
  const runs: string[][] = [[]];
  for (const point of points) {
    if (point.speedKmh === null) runs.push([]);
    else runs.at(-1)?.push(`${svgNumber(x(point.timeMs))} ${svgNumber(y(point.speedKmh))}`);
  }
  const lines = runs.filter((run) => run.length > 1).map((run) => `M${run.join(" L")}`);
  const dots = runs
    .filter((run) => run.length === 1)
    .map((run) => {
      const [cx, cy] = (run[0] as string).split(" ");
      return `<circle cx="${cx}" cy="${cy}" r="2.5" fill="#1f5fa8"/>`;
    });
  return `<path class="speed" d="${lines.join(" ")}" fill="none" stroke="#1f5fa8" stroke-width="2.5" stroke-linejoin="round"/>${dots.join("")}`;
}

function yAxis(step: number, top: number, y: (kmh: number) => number): string {
  const ticks: string[] = [];
  for (let kmh = 0; kmh <= top; kmh += step) {
    const tickY = svgNumber(y(kmh));
    ticks.push(
      `<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${tickY}" y2="${tickY}" stroke="#ddd"/>`,
      `<text x="${PLOT.left - 6}" y="${tickY}" dy="4" text-anchor="end" ${FONT}>${kmh}</text>`,
    );
  }
  const middle = (PLOT.top + PLOT.bottom) / 2;
  ticks.push(
    `<text x="14" y="${middle}" transform="rotate(-90 14 ${middle})" text-anchor="middle" ${FONT}>km/h</text>`,
  );
  return ticks.join("");
}

function xAxis(
  window: { startMs: number; endMs: number },
  eventMs: number,
  x: (timeMs: number) => number,
): string {
  const stepSeconds = Math.max(1, roundNumberAtLeast((window.endMs - window.startMs) / 1000 / TICKS_WANTED));
  const first = Math.ceil((window.startMs - eventMs) / 1000 / stepSeconds) * stepSeconds;
  const parts = [
    `<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${PLOT.bottom}" y2="${PLOT.bottom}" stroke="#333"/>`,
  ];
  for (let seconds = first; eventMs + seconds * 1000 <= window.endMs; seconds += stepSeconds) {
    const tickX = svgNumber(x(eventMs + seconds * 1000));
    const label = seconds === 0 ? "0" : `${seconds > 0 ? "+" : "−"}${Math.abs(seconds)} s`;
    parts.push(
      `<line x1="${tickX}" x2="${tickX}" y1="${PLOT.bottom}" y2="${PLOT.bottom + 5}" stroke="#333"/>`,
      `<text x="${tickX}" y="${PLOT.bottom + 18}" text-anchor="middle" ${FONT}>${label}</text>`,
    );
  }
  parts.push(
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${HEIGHT - 8}" text-anchor="middle" ${FONT}>seconds from the event</text>`,
  );
  return parts.join("");
}
