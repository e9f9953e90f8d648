import type { StructuredLogger } from "@fleet-alerts/core";
import { sweepParkedEvidence } from "@fleet-alerts/core/evidence";
import type { EvidenceRuntime } from "./evidence-runtime.js";
import { logger } from "./observability.js";
import { stageAccountIds } from "./secrets.js";

/**
 * The parked-evidence sweep of every account of the stage, one after the other (a message on the
 * evidence queue starts it: infra/evidence.ts's schedule, the local mode's clock). An account with
 * nothing parked costs one Query and no device-cloud call. A failed account does not stop the
 * others; the failures are thrown together after them, so that the message comes back (each step is
 * idempotent: sweep.ts).
 */
export async function sweepEveryAccount(
  env: Readonly<Record<string, string | undefined>>,
  runtimeFor: (account: string) => Promise<EvidenceRuntime>,
): Promise<void> {
  const failed: string[] = [];
  for (const account of await stageAccountIds(env)) {
    // The runtime's logger once it is built (the local mode's keeps its live view clean of info lines).
    let log: StructuredLogger = logger;
    try {
      const runtime = await runtimeFor(account);
      log = runtime.logger;
      const cloud = runtime.accounts.get(account);
      if (!cloud) throw new Error(`no device cloud configured for account ${account}`);
      const tally = await sweepParkedEvidence(account, { ...runtime.deps, client: cloud.client });
      log.info("parked evidence swept", { account, ...tally });
    } catch (error) {
      log.error("parked evidence sweep failed", { account, error: (error as Error).message });
      failed.push(account);
    }
  }
  if (failed.length > 0) throw new Error(`parked evidence sweep failed for ${failed.join(", ")}`);
}
