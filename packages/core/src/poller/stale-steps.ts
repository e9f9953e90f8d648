import type { AlertRecord } from "../alerts/record.js";
import type { Run } from "./chunk-stages.js";

/**
 * The chunk's stale records counted into the account's open stale summary, before the cursor passes
 * them: a crash before this replays the chunk, which counts them then (once: stale-tally.ts).
 */
export async function noteStale(run: Run, window: readonly AlertRecord[], through: bigint): Promise<void> {
  await run.deps.staleSummaries?.note(run.settings.account, window, through);
  run.deps.checkpoint?.("stale-noted");
}

/**
 * The poll has caught up: the groups are told what the catch-up held back as stale. Its cursor has
 * moved already, so a failure only delays the summary: it is logged, and the next poll that catches
 * up sends what is still owed (each group once: notices/deliver-once.ts).
 */
export async function tellStale(run: Run, pastDeadline: () => boolean): Promise<void> {
  const { deps, settings } = run;
  if (!deps.staleSummaries) return;
  try {
    await deps.staleSummaries.sendOwed(settings.account, run.cursor, { now: deps.now, pastDeadline });
  } catch (error) {
    deps.logger.error("stale summary not sent; the next poll that catches up sends it", {
      account: settings.account,
      error: (error as Error).message,
    });
  }
}
