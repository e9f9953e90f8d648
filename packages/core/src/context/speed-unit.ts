import * as z from "zod";

/**
 * The unit of `speed` in /api/gps points. The spec does not show it (while `gpsdata` names its own
 * `speedInKmh`), so it is a per-account setting, km/h unless an account says otherwise.
 */
export const SPEED_UNITS = ["km/h", "mph", "knots", "m/s"] as const;
export const speedUnitSchema = z.enum(SPEED_UNITS);
export type SpeedUnit = z.output<typeof speedUnitSchema>;

const KMH_PER_UNIT: Record<SpeedUnit, number> = {
  "km/h": 1,
  mph: 1.609344,
  knots: 1.852,
  "m/s": 3.6,
};

export function toKmh(speed: number, unit: SpeedUnit): number {
  return speed * KMH_PER_UNIT[unit];
}
