import { type Check, durationText, fail, pass, settle } from "./check.js";
import type { PollRecord, PollRecords } from "./ports.js";

const OPERATE = "docs/operate.md";

/**
 * Per account: when a poll last caught up with the event log, and whether that is longer ago than
 * the stage's lag threshold (the lag alarm's). A quiet fleet does not look stale: a poll that finds
 * nothing new still catches up, whereas the cursor only moves with events. A poll chain records its
 * catch-up as it ends, once a minute: before a new stage's first chain has ended, a cursor moved
 * within the threshold shows the polls run.
 */
export function checkLastPoll(
  account: string,
  polls: PollRecords,
  options: { nowMs: number; lagThresholdSeconds: number },
): Promise<Check[]> {
  const name = `account ${account}: last poll`;
  const thresholdMs = options.lagThresholdSeconds * 1000;
  const ago = (atMs: number) => `${durationText(Math.max(0, options.nowMs - atMs))} ago`;
  return settle(
    name,
    async () => {
      const record = await polls.read(account);
      const { caughtUpAtMs } = record;
      const cursor = cursorText(record, ago);
      if (caughtUpAtMs !== undefined) {
        const seen = `caught up ${ago(caughtUpAtMs)}, ${new Date(caughtUpAtMs).toISOString()} (${cursor})`;
        if (options.nowMs - caughtUpAtMs <= thresholdMs)
          return pass(name, `${seen}; lag under ${options.lagThresholdSeconds} s`);
        return fail(
          name,
          `${seen}; over the lag threshold of ${options.lagThresholdSeconds} s`,
          `read the poller's errors for account ${account} in its logs (the device cloud down? secrets refused?), fix them, and watch the lag fall (${OPERATE})`,
        );
      }
      const movedAtMs = record.cursor?.movedAtMs;
      if (movedAtMs !== undefined && options.nowMs - movedAtMs <= thresholdMs)
        return pass(
          name,
          `polling (${cursor}); no catch-up recorded yet: a poll chain records it as it ends`,
        );
      return fail(
        name,
        `no poll has caught up yet (${cursor})`,
        `a new stage's first poll comes within a minute: if none does, check that its schedule is enabled and the poller's logs (${OPERATE})`,
      );
    },
    "check that this shell may read the stage's table (AWS credentials and region), then run doctor again",
  );
}

function cursorText({ cursor }: PollRecord, ago: (atMs: number) => string): string {
  if (cursor === undefined) return "no cursor";
  return `cursor at ${cursor.serialno}${cursor.movedAtMs === undefined ? "" : `, moved ${ago(cursor.movedAtMs)}`}`;
}
