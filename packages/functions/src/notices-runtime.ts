import { SNSClient } from "@aws-sdk/client-sns";
import { AlertLinks, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { noticesEnvSchema, parseEnv } from "@fleet-alerts/core/config";
import { alertLinkOf, NoticeClaims, type NoticesDependencies } from "@fleet-alerts/core/notices";
import { loadGroupsFile } from "@fleet-alerts/core/routing";
import { ShareStore } from "@fleet-alerts/core/share";
import { awsClientConfig, type RuntimeOverrides, tableRef } from "./runtime.js";

/**
 * What the notices function needs, built once per container: the groups file, the table (claims,
 * held and routed items, alert records, link grants) and the alerts topic. No device cloud; the one
 * secret is the share-link secret, for the incident links the notices list.
 */
export async function buildNoticesRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Pick<RuntimeOverrides, "now">,
): Promise<NoticesDependencies> {
  const config = parseEnv(noticesEnvSchema, env);
  const table = tableRef(env, config.TABLE_NAME);
  const links =
    config.PUBLIC_BASE_URL && config.SHARE_LINK_SECRET
      ? new AlertLinks(new ShareStore(table), {
          baseUrl: config.PUBLIC_BASE_URL,
          secret: config.SHARE_LINK_SECRET,
          lifetimeMs: config.SHARE_LINK_HOURS * 3_600_000,
        })
      : undefined;
  return {
    table,
    groups: await loadGroupsFile(config.GROUPS_FILE),
    fleetTimeZone: config.FLEET_TIME_ZONE,
    claims: new NoticeClaims(table),
    publisher: new SnsAlertPublisher(new SNSClient(awsClientConfig(env, "SNS")), config.ALERTS_TOPIC_ARN),
    ...(links && { linkOf: alertLinkOf(links) }),
    now: overrides.now ?? Date.now,
  };
}
