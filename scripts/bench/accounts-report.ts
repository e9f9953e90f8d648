/** Section 6b of `npm run bench`: prints what the accounts' polling costs (accounts-cost.ts). */
import { type AccountsCostRow, accountsCost } from "./accounts-cost.js";
import type { SynthesizedHandlers } from "./handlers.js";
import type { PollProfile } from "./poll-profile.js";

export function reportAccountsCost(
  pollEverySeconds: number,
  profile: PollProfile,
  stack: Pick<SynthesizedHandlers, "resourceCounts">,
): AccountsCostRow[] {
  console.log(
    `\n6b. What the device-cloud accounts cost, USD a month, each polled every ${pollEverySeconds} s (production's mode; the same fleet, split; scripts/bench/accounts-cost.ts)`,
  );
  const rows = accountsCost(pollEverySeconds, profile, stack);
  const items = rows[0]?.lines.map((line) => line.item) ?? [];
  const cell = (text: string) => text.padStart(13);
  console.log(
    `   ${"".padEnd(58)} ${rows.map((row) => cell(`${row.accounts} account${row.accounts === 1 ? "" : "s"}`)).join("")}`,
  );
  for (const [index, item] of items.entries()) {
    console.log(
      `   ${item.padEnd(58)} ${rows.map((row) => cell((row.lines[index]?.usd ?? 0).toFixed(2))).join("")}`,
    );
  }
  console.log(`   ${"total".padEnd(58)} ${rows.map((row) => cell(row.totalUsd.toFixed(2))).join("")}`);
  console.log(
    `   ${"(every poll metric per account)".padEnd(58)} ${rows.map((row) => cell(row.everyMetricPerAccountUsd.toFixed(2))).join("")}`,
  );
  return rows;
}
