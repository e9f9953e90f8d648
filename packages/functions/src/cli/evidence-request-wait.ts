import { access } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { AlertStore } from "@fleet-alerts/core/alerts";
import { BAG_FILES } from "@fleet-alerts/core/evidence";
import { parseAlertId } from "@fleet-alerts/core/share";
import type { TableRef } from "@fleet-alerts/core/store";
import { CliError } from "./parse.js";
import type { RequestPlace } from "./request-place.js";

/** Real seconds between reads of the alert record: one small GetItem each. */
const POLL_MS = 1_000;

/**
 * `evidence request --wait`: reads the request's alert record until the evidence function has
 * settled it, then says where the pack is (in the local mode, once its copy in the evidence folder
 * is whole: its tag manifest, the bag's last file, is there). The request stands whatever happens
 * here: a pack not ready in time is collected all the same.
 */
export async function waitForPack(
  place: RequestPlace,
  table: TableRef,
  alertId: string,
  timeoutMs: number,
): Promise<void> {
  const { account, serialno, ruleId } = parseAlertId(alertId);
  const alerts = new AlertStore(table);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const record = await alerts.get(account, serialno, ruleId);
    const [manifestKey] = record?.evidenceKeys ?? [];
    if (record?.evidenceStatus === "failed")
      throw new CliError(
        `the footage of ${alertId} could not be collected: ${record.evidenceError || "see the evidence function's log"}`,
      );
    if ((record?.evidenceStatus === "stored" || record?.evidenceStatus === "unavailable") && manifestKey) {
      const location = place.packLocation(alertId, manifestKey);
      if (place.localEvidenceDir === undefined || (await exists(join(location, BAG_FILES.tagManifest)))) {
        console.log(
          `claim pack ${record.evidenceStatus === "stored" ? "ready" : "ready, without video"}: ${location}`,
        );
        return;
      }
    }
    await sleep(POLL_MS);
  }
  throw new CliError(
    `no claim pack of ${alertId} after ${Math.round(timeoutMs / 1000)} s: the request stands, and the link above ` +
      "shows the footage once it is collected (a vehicle offline is waited for)",
  );
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
