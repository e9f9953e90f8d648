const UNITS = [
  { label: "d", seconds: 86_400 },
  { label: "h", seconds: 3600 },
  { label: "min", seconds: 60 },
  { label: "s", seconds: 1 },
] as const;

/** Whole seconds as the units a person would say, exactly: 300 -> "5 min", 5400 -> "1 h 30 min". */
export function formatDuration(totalSeconds: number): string {
  let rest = Math.round(Math.abs(totalSeconds));
  if (rest === 0) return "0 s";
  const parts: string[] = [];
  for (const unit of UNITS) {
    const count = Math.floor(rest / unit.seconds);
    if (count > 0) parts.push(`${count} ${unit.label}`);
    rest -= count * unit.seconds;
  }
  return parts.join(" ");
}

const UNIT_SECONDS = { d: 86_400, h: 3600, m: 60, s: 1 } as const;

/** Days, hours, minutes and seconds in that order, each at most once: "90s", "10m", "1h30m", "30d". */
const DURATION_PATTERN = /^(?=\d)(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * A duration written as a person would ("10m", "72h"), as whole seconds; undefined when it is not
 * one. Rules (escalation waits) and the CLI (share-link expiry) both read durations this way.
 */
export function parseDurationSeconds(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  const [, days = "0", hours = "0", minutes = "0", seconds = "0"] = match;
  const total =
    Number(days) * UNIT_SECONDS.d +
    Number(hours) * UNIT_SECONDS.h +
    Number(minutes) * UNIT_SECONDS.m +
    Number(seconds) * UNIT_SECONDS.s;
  return Number.isSafeInteger(total) ? total : undefined;
}
