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
