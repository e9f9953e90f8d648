import type { TrackPoint } from "@fleet-alerts/core/context";
import { describe, expect, it } from "vitest";
import { MAX_GPS_WINDOWS_PER_DEVICE, walkRuns } from "../../../packages/core/src/recorder/gps-walk.js";

const MINUTE = 60_000;

/** A device cloud whose GPS history has points in the minutes `online` holds; the windows asked, in order. */
function history(online: (minute: number) => boolean) {
  const asked: [number, number][] = [];
  const windowTrack = async (from: number, to: number): Promise<TrackPoint[]> => {
    asked.push([from, to]);
    const points: TrackPoint[] = [];
    for (let minute = from; minute < to; minute++)
      if (online(minute))
        points.push({ timeMs: minute * MINUTE, lat: 52.5, lng: 13.4, speedKmh: 40, headingDeg: 0 });
    return points;
  };
  return { asked, windowTrack };
}

function mapWith(...runs: [from: number, to: number, value: number][]): number[] {
  const map = new Array<number>(1440).fill(1);
  for (const [from, to, value] of runs) map.fill(value, from, to);
  return map;
}

describe("the GPS windows an unrecorded run costs", () => {
  it("costs a day parked, never heard and never recorded, no call at all", async () => {
    const { asked, windowTrack } = history(() => false);
    const walked = await walkRuns([{ start: 0, end: 1440 }], mapWith([0, 1440, 0]), undefined, windowTrack);
    expect(walked).toMatchObject({ windows: 0, track: [] });
    expect(asked).toEqual([]);
  });

  it("costs an overnight stop one empty window at each end", async () => {
    const { asked, windowTrack } = history(() => false);
    const map = mapWith([0, 420, 0], [1080, 1440, 0]);
    await walkRuns([{ start: 1080, end: 1440 }], map, undefined, windowTrack);
    expect(asked).toEqual([[1080, 1110]]);
  });

  it("walks a failed camera's stretch inside a drive from both ends, 30 minutes a call at most", async () => {
    const { asked, windowTrack } = history((minute) => minute >= 500 && minute < 600);
    const map = mapWith([520, 575, 0]);
    const walked = await walkRuns([{ start: 520, end: 575 }], map, undefined, windowTrack);
    expect(asked).toEqual([
      [520, 550],
      [550, 575],
    ]);
    expect(walked.track).toHaveLength(55);
  });

  it("walks GPS-only minutes whole, and from the last time the device was heard", async () => {
    const { asked, windowTrack } = history((minute) => minute >= 700 && minute < 760);
    // Nothing recorded all day but GPS only at 700-710; heard last at 759.
    const map = mapWith([0, 700, 0], [700, 710, 3], [710, 1440, 0]);
    const walked = await walkRuns([{ start: 0, end: 1440 }], map, 759, windowTrack);
    expect(walked.track).toHaveLength(60);
    expect(asked.every(([from, to]) => to - from <= 30)).toBe(true);
    // Each walk stops at the first empty window on either side of the drive.
    expect(asked.length).toBeLessThanOrEqual(6);
  });

  it("stops at MAX_GPS_WINDOWS_PER_DEVICE windows and says so", async () => {
    const { asked, windowTrack } = history(() => true);
    const walked = await walkRuns([{ start: 0, end: 1440 }], mapWith([0, 1440, 3]), undefined, windowTrack);
    expect(asked).toHaveLength(MAX_GPS_WINDOWS_PER_DEVICE);
    expect(walked.truncated).toBe(true);
  });
});
