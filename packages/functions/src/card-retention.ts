import { cardRetentionEnvSchema, parseEnv } from "@fleet-alerts/core/config";
import { RecorderCardRetention, RecorderHealthStore } from "@fleet-alerts/core/recorder";
import type { TableRef } from "@fleet-alerts/core/store";

/**
 * The CardRetention port as waiting evidence reads it: the stage's CARD_RETENTION (device types,
 * maximum) over the audit's estimates in the table.
 */
export function cardRetentionOf(env: Readonly<Record<string, string | undefined>>, table: TableRef) {
  const { CARD_RETENTION } = parseEnv(cardRetentionEnvSchema, env);
  return new RecorderCardRetention(new RecorderHealthStore(table), CARD_RETENTION);
}
