/**
 * `npm run bench -- 1c 3 6b`: the sections that need no other section's figures, alone (the latency
 * modes, quiet and under load, took 10.8 minutes alone on 2026-12-06; the catch-up beside the code
 * before issue 41, 2.2). Nothing is written to .build/bench.json.
 */
import { loadStageConfig } from "../../infra/stage-config.js";
import { reportAccountsCost } from "./accounts-report.js";
import { reportBacklogBeside } from "./backlog-baseline.js";
import { FLEET } from "./cost.js";
import { synthesizeHandlers } from "./handlers.js";
import { reportLatencyModes } from "./latency-report.js";
import { forkPollProfile, type PollProfile } from "./poll-profile.js";

export const SECTIONS_ALONE = ["1c", "3", "6b"] as const;

export async function runSectionsAlone(
  sections: readonly string[],
  judge: (section: string, figure: string, target: string, met: boolean) => string,
): Promise<void> {
  const unknown = sections.filter((section) => !(SECTIONS_ALONE as readonly string[]).includes(section));
  if (unknown.length > 0)
    throw new Error(
      `sections ${unknown.join(", ")} cannot run alone; these can: ${SECTIONS_ALONE.join(", ")}`,
    );
  if (sections.includes("1c")) await reportBacklogBeside(judge);
  const production = loadStageConfig("production");
  let profile: PollProfile | undefined;
  if (sections.includes("3")) profile = (await reportLatencyModes(judge)).profile;
  if (!sections.includes("6b")) return;
  profile ??= await forkPollProfile(production.pollerMemoryMb, FLEET.deviceCloudRoundTripMs);
  const handlers = await synthesizeHandlers();
  try {
    reportAccountsCost(production.pollEverySeconds ?? 60, profile, handlers);
  } finally {
    await handlers.remove();
  }
}
