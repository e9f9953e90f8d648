import { SNSClient } from "@aws-sdk/client-sns";
import { AlertLinks, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { noticesEnvSchema, parseEnv, recorderAuditEnvSchema } from "@fleet-alerts/core/config";
import { alertLinkOf, NoticeClaims, type NoticesDependencies } from "@fleet-alerts/core/notices";
import { RecorderHealthStore } from "@fleet-alerts/core/recorder";
import { loadGroupsFile, NO_GROUPS } from "@fleet-alerts/core/routing";
import { SetAside, SetAsideStore, SnsOpsChannel } from "@fleet-alerts/core/setaside";
import { ShareStore } from "@fleet-alerts/core/share";
import * as z from "zod";
import { logger, logObserver } from "./observability.js";
import { awsClientConfig, type RuntimeOverrides, tableRef } from "./runtime.js";
import { ACCOUNTS_FILE_ENV, readAccountsFile } from "./secrets.js";

/**
 * What the notices function needs, built once per container: the groups file, the table (claims,
 * held and routed items, alert records, link grants, set-aside records), the alerts topic and the
 * ops topic. No device cloud; the one secret is the share-link secret, for the incident links the
 * notices list.
 */
export async function buildNoticesRuntime(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Pick<RuntimeOverrides, "now" | "wallClock" | "logger" | "observer">,
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
  const now = overrides.now ?? Date.now;
  const wallClock = overrides.wallClock ?? Date.now;
  const log = overrides.logger ?? logger;
  const sns = new SNSClient(awsClientConfig(env, "SNS"));
  // The sweep of set-aside records whose notice to ops a crash left owed, in every account.
  const setAsideSweep = accounts &&
    config.OPS_TOPIC_ARN && {
      accounts,
      setAside: new SetAside({
        records: new SetAsideStore(table),
        ops: new SnsOpsChannel(sns, config.OPS_TOPIC_ARN),
        observer: overrides.observer ?? logObserver(log),
        logger: log,
        now,
        wallClock,
      }),
    };
  const recorder = accounts && {
    health: new RecorderHealthStore(table),
    accounts,
    offlineDays: parseEnv(recorderAuditEnvSchema, env).RECORDER_AUDIT.offlineDays,
  };
  return {
    table,
    groups: config.GROUPS_FILE ? await loadGroupsFile(config.GROUPS_FILE) : NO_GROUPS,
    fleetTimeZone: config.FLEET_TIME_ZONE,
    claims: new NoticeClaims(table),
    publisher: new SnsAlertPublisher(sns, config.ALERTS_TOPIC_ARN),
    ...(links && { linkOf: alertLinkOf(links) }),
    ...(recorder && { recorder }),
    ...(setAsideSweep && { setAsideSweep }),
    now,
    wallClock,
  };
}

/**
 * The stage's account ids, for the digest's recorder summary and the set-aside sweep: from the
 * bundled accounts file in a stage, from DEVICE_CLOUD_ACCOUNTS elsewhere (the local mode, tests);
 * neither: no summary and no sweep.
 */
async function accountIds(env: Readonly<Record<string, string | undefined>>): Promise<string[] | undefined> {
  if (env[ACCOUNTS_FILE_ENV]) return (await readAccountsFile(env)).map((account) => account.id);
  if (!env.DEVICE_CLOUD_ACCOUNTS) return undefined;
  const listed = z.array(z.object({ id: z.string() })).parse(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS));
  return listed.map((account) => account.id);
}
