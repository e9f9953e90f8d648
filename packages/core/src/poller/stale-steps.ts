import type { AlertRecord } from "../alerts/record.js";
import type { Run } from "./chunk-stages.js";
import type { PollerDependencies } from "./dependencies.js";

/**
 * The chunk's stale records counted into the account's open stale summary, before the cursor passes
 * them: a crash before this replays the chunk, which counts them then (once: stale-tally.ts).
 */
export async function noteStale(run: Run, window: readonly AlertRecord[], through: bigint): Promise<void> {
  await run.deps.staleSummaries?.note(run.settings.account, window, through);
  await run.deps.checkpoint?.("stale-noted");
}

/**
 * The poll has caught up at `cursor` (having read events or not): the groups are told what the
 * catch-up held back as stale. Its cursor has moved already, so a failure only delays the summary:
 * it is logged, and the next poll that catches up sends what is still owed (each group once:
 * notices/deliver-once.ts). Once nothing is owed at a cursor, a warm container asks no more
 * (stale-summaries.ts), so an idle poll reads nothing for it.
 */
export async function tellStale(
  account: string,
  cursor: bigint,
  deps: Pick<PollerDependencies, "staleSummaries" | "now" | "logger">,
  pastDeadline: () => boolean,
): Promise<void> {
  if (!deps.staleSummaries) return;
  try {
    await deps.staleSummaries.sendOwed(account, cursor, { now: deps.now, pastDeadline });
  } catch (error) {
    deps.logger.error("stale summary not sent; the next poll that catches up sends it", {
      account,
      error: (error as Error).message,
    });
  }
}
