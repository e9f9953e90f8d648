import { SNSClient } from "@aws-sdk/client-sns";
import { AlertLinks, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { noticesEnvSchema, parseEnv, recorderAuditEnvSchema } from "@fleet-alerts/core/config";
import { alertLinkOf, NoticeClaims, type NoticesDependencies } from "@fleet-alerts/core/notices";
import { RecorderHealthStore } from "@fleet-alerts/core/recorder";
import { loadGroupsFile } from "@fleet-alerts/core/routing";
import { ShareStore } from "@fleet-alerts/core/share";
import * as z from "zod";
import { awsClientConfig, type RuntimeOverrides, tableRef } from "./runtime.js";
import { ACCOUNTS_FILE_ENV, readAccountsFile } from "./secrets.js";

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
  const accounts = await accountIds(env);
  const recorder = accounts && {
    health: new RecorderHealthStore(table),
    accounts,
    offlineDays: parseEnv(recorderAuditEnvSchema, env).RECORDER_AUDIT.offlineDays,
  };
  return {
    table,
    groups: await loadGroupsFile(config.GROUPS_FILE),
    fleetTimeZone: config.FLEET_TIME_ZONE,
    claims: new NoticeClaims(table),
    publisher: new SnsAlertPublisher(new SNSClient(awsClientConfig(env, "SNS")), config.ALERTS_TOPIC_ARN),
    ...(links && { linkOf: alertLinkOf(links) }),
    ...(recorder && { recorder }),
    now: overrides.now ?? Date.now,
  };
}

/**
 * The stage's account ids, for the digest's recorder summary: from the bundled accounts file in a
 * stage, from DEVICE_CLOUD_ACCOUNTS elsewhere (the local mode, tests); neither: no summary.
 */
async function accountIds(env: Readonly<Record<string, string | undefined>>): Promise<string[] | undefined> {
  if (env[ACCOUNTS_FILE_ENV]) return (await readAccountsFile(env)).map((account) => account.id);
  if (!env.DEVICE_CLOUD_ACCOUNTS) return undefined;
  const listed = z.array(z.object({ id: z.string() })).parse(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS));
  return listed.map((account) => account.id);
}
