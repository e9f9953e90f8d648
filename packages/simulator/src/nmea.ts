/** The `nmea` field of status objects: a standard RMC sentence built from a fix. */

export interface Fix {
  epochMs: number;
  lat: number;
  lng: number;
  speedKmh: number;
  heading: number;
}

const KMH_PER_KNOT = 1.852;

export function rmcSentence(fix: Fix): string {
  const time = new Date(fix.epochMs);
  const two = (value: number) => String(value).padStart(2, "0");
  const body = [
    "GPRMC",
    `${two(time.getUTCHours())}${two(time.getUTCMinutes())}${two(time.getUTCSeconds())}.00`,
    "A",
    degreesMinutes(Math.abs(fix.lat), 2),
    fix.lat >= 0 ? "N" : "S",
    degreesMinutes(Math.abs(fix.lng), 3),
    fix.lng >= 0 ? "E" : "W",
    (fix.speedKmh / KMH_PER_KNOT).toFixed(1),
    fix.heading.toFixed(1),
    `${two(time.getUTCDate())}${two(time.getUTCMonth() + 1)}${two(time.getUTCFullYear() % 100)}`,
    "",
    "",
    "A",
  ].join(",");
  return `$${body}*${checksum(body)}`;
}

/** NMEA angle: whole degrees then decimal minutes, e.g. 5231.2000 for 52.52 degrees. */
function degreesMinutes(degrees: number, degreeDigits: number): string {
  const tenThousandthsOfMinute = Math.round(degrees * 60 * 10_000);
  const whole = Math.floor(tenThousandthsOfMinute / 600_000);
  const minutes = (tenThousandthsOfMinute % 600_000) / 10_000;
  return `${String(whole).padStart(degreeDigits, "0")}${minutes.toFixed(4).padStart(7, "0")}`;
}

function checksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, "0");
}
