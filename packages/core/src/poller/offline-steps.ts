import { awsJson } from "../aws-text.js";
import type { OfflineCheckJob } from "../offline/check.js";
import type { OfflineStep } from "./decide-chunk.js";
import type { PollerDependencies, PollSummary } from "./dependencies.js";

/**
 * Carries out a chunk's Offline steps in event order: an Online event cancels a pending check of
 * an earlier Offline event; an Offline event records its pending check and sends the delayed
 * message that will confirm it, unless a later event of the device decided it already. A message
 * the queue refuses for good is set aside (no Offline alert will follow for that event).
 */
export async function sendOfflineSteps(
  account: string,
  steps: readonly OfflineStep[],
  deps: Pick<PollerDependencies, "offlineChecks" | "confirmQueue" | "observer" | "now" | "setAside">,
  summary: Pick<PollSummary, "offlineChecks" | "offlineCancelled">,
): Promise<void> {
  for (const step of steps) {
    const { event, rule } = step;
    const ids = { account, serialno: event.serialno.toString(), deviceid: event.deviceid, rule: rule.id };
    if (step.kind === "cancel-offline") {
      if (await deps.offlineChecks.cancelBefore(account, event.deviceid, rule.id, event.serialno)) {
        summary.offlineCancelled++;
        deps.observer.observe({ type: "offline-cancelled", ...ids, reason: "online-event" });
      }
      continue;
    }
    if (
      !(await deps.offlineChecks.schedule(account, event.deviceid, rule.id, event.serialno, step.dueAtMs))
    ) {
      continue; // decided already (a later event of this device), nothing to confirm
    }
    const job: OfflineCheckJob = {
      version: 1,
      account,
      ruleId: rule.id,
      deviceid: event.deviceid,
      serialno: event.serialno.toString(),
      eventtime: event.eventtime,
      dueAtMs: step.dueAtMs,
    };
    const [refused] = await deps.confirmQueue.send([
      { body: awsJson(job), delaySeconds: (step.dueAtMs - deps.now()) / 1000 },
    ]);
    if (refused) {
      const { rule: ruleId, ...keys } = ids;
      await deps.setAside.put([{ ...keys, ruleId, step: "offline-check", reason: refused.reason }]);
      continue;
    }
    summary.offlineChecks++;
    deps.observer.observe({ type: "offline-scheduled", ...ids, dueAt: new Date(step.dueAtMs).toISOString() });
  }
}
