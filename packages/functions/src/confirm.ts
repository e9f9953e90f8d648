import { confirmOffline, offlineCheckJobSchema } from "@fleet-alerts/core/offline";
import { logger } from "./observability.js";
import { buildRuntime, type RuntimeOverrides } from "./runtime.js";
import { perAccount, withSecrets } from "./secrets.js";
import { sqsRecordHandler } from "./sqs-handler.js";

/**
 * The Offline confirmation: receives the delayed checks the poller schedules, several at a time.
 * Each job names its account, whose secrets are read on its first job in the container.
 */
export function createConfirmHandler(
  env: Readonly<Record<string, string | undefined>>,
  options: RuntimeOverrides = {},
) {
  return sqsRecordHandler(
    async () =>
      perAccount((account) =>
        withSecrets(env, [account]).then((resolved) => buildRuntime(resolved, options)),
      ),
    async (record, runtimeFor) => {
      const job = offlineCheckJobSchema.parse(JSON.parse(record.body));
      logger.appendKeys({
        account: job.account,
        serialno: job.serialno,
        deviceid: job.deviceid,
        rule: job.ruleId,
      });
      const { pollers } = await runtimeFor(job.account);
      const poller = pollers.find((candidate) => candidate.settings.account === job.account);
      if (!poller) throw new Error(`offline check for unknown account ${job.account}`);
      const outcome = await confirmOffline(job, poller.settings, poller.deps);
      (options.logger ?? logger).info("offline check handled", { outcome });
    },
    { inParallel: true },
  );
}

export const handler = createConfirmHandler(process.env);
