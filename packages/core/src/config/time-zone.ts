import * as z from "zod";

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name that this runtime knows, for configuration schemas. */
export const timeZoneSchema = z
  .string()
  .refine(isTimeZone, 'must be an IANA time zone such as "Europe/Berlin"');
