import { type SpeedUnit, toKmh } from "./speed-unit.js";

export interface OverSpeedMemo {
  speedKmh?: number;
  limitKmh?: number;
}

const NUMBER = String.raw`([0-9]+(?:\.[0-9]+)?)`;
const UNIT = String.raw`\s*(km\/?h|kph|mph|knots|kn|m\/s)?`;
const LIMIT = new RegExp(String.raw`limit\w*\W{0,3}?${NUMBER}${UNIT}`, "i");
const SPEED = new RegExp(
  String.raw`(?:speed\w*\W{0,3}?${NUMBER}${UNIT})|(?:${NUMBER}\s*(km\/?h|kph|mph|knots|kn|m\/s))`,
  "i",
);

/**
 * The speed and the limit an OverSpeed event's `memo` states, in km/h. The spec shows neither the
 * memo's type nor its format, so this reads what devices commonly write: text such as
 * "92.3 km/h, limit 80 km/h" or "speed:92 limit:80", or a JSON object with `speed`- and
 * `limit`-like keys. A unit after the number (km/h, mph, kn, m/s) is honoured; without one, km/h.
 * What cannot be read is left out: the limit then comes from the rule, the speed from the track.
 */
export function readOverSpeedMemo(memo: unknown): OverSpeedMemo {
  if (typeof memo === "object" && memo !== null) return fromObject(memo as Record<string, unknown>);
  if (typeof memo !== "string") return {};
  const limit = LIMIT.exec(memo);
  // The limit's own number must not be read as the speed.
  const speed = SPEED.exec(limit ? memo.replace(limit[0], " ") : memo);
  return withoutUndefined({
    limitKmh: limit ? plausible(toKmh(Number(limit[1]), unitOf(limit[2]))) : undefined,
    speedKmh: speed
      ? plausible(toKmh(Number(speed[1] ?? speed[3]), unitOf(speed[2] ?? speed[4])))
      : undefined,
  });
}

function fromObject(memo: Record<string, unknown>): OverSpeedMemo {
  const numberAt = (pattern: RegExp) => {
    for (const [key, value] of Object.entries(memo)) {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (pattern.test(key) && typeof number === "number" && Number.isFinite(number))
        return plausible(number);
    }
    return undefined;
  };
  return withoutUndefined({ limitKmh: numberAt(/limit/i), speedKmh: numberAt(/^(?!.*limit).*speed/i) });
}

function unitOf(text: string | undefined): SpeedUnit {
  const unit = text?.toLowerCase();
  if (unit === "mph") return "mph";
  if (unit === "kn" || unit === "knots") return "knots";
  if (unit === "m/s") return "m/s";
  return "km/h";
}

/** A road speed: above 0 and at most 300 km/h; anything else is a misreading. */
function plausible(kmh: number): number | undefined {
  return kmh > 0 && kmh <= 300 ? kmh : undefined;
}

function withoutUndefined(memo: OverSpeedMemo): OverSpeedMemo {
  return Object.fromEntries(Object.entries(memo).filter(([, value]) => value !== undefined));
}
