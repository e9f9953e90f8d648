import { parseEnv, recorderAuditEnvSchema } from "@fleet-alerts/core/config";
import {
  type RecorderAuditDependencies,
  type RecorderAuditRunSettings,
  RecorderHealthStore,
} from "@fleet-alerts/core/recorder";
import { buildRuntime, type RuntimeOverrides, tableRef } from "./runtime.js";

export interface RecorderAuditAccount {
  settings: RecorderAuditRunSettings;
  deps: RecorderAuditDependencies;
}

/**
 * The recorder audit's runtime, built once per container and account: the poller's (the account's
 * client, the alert records, the router, the topic and the queues a not-recording alert goes out
 * by) with the audit's own store and settings.
 */
export async function buildRecorderAuditRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: RuntimeOverrides = {},
) {
  const config = parseEnv(recorderAuditEnvSchema, env);
  const { pollers, config: pollerConfig } = await buildRuntime(env, overrides);
  const health = new RecorderHealthStore(tableRef(env, pollerConfig.TABLE_NAME));
  const accounts = pollers.map(
    ({ settings, deps }): RecorderAuditAccount => ({
      settings: {
        account: settings.account,
        fleetTimeZone: settings.fleetTimeZone,
        ...(settings.linkBaseUrl && { linkBaseUrl: settings.linkBaseUrl }),
        audit: config.RECORDER_AUDIT,
        utcOffsetMinutes: config.FLEET_UTC_OFFSET,
        speedUnit: settings.gps.speedUnit,
      },
      deps: { ...deps, health },
    }),
  );
  return { accounts, marginMs: config.RECORDER_AUDIT_MARGIN_SECONDS * 1000 };
}
