import type { AlertRecord } from "./record.js";
import { type AlertBody, alertBodySchema } from "./render/json.js";

/**
 * The JSON body the alert was published with, from the message its record keeps; none for a record
 * made before messages were kept, or whose body no longer parses.
 */
export function publishedBody(record: Pick<AlertRecord, "message">): AlertBody | undefined {
  if (!record.message) return undefined;
  const parsed = alertBodySchema.safeParse(JSON.parse(record.message.default));
  return parsed.success ? parsed.data : undefined;
}
