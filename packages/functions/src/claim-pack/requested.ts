import { claimPackJobSchema } from "@fleet-alerts/core/evidence";
import { parseAlertId } from "@fleet-alerts/core/share";
import type { EvidenceRuntime } from "../evidence-runtime.js";
import { logger } from "../observability.js";
import { buildClaimPackZip } from "./build-zip.js";

/** A claim-pack job from the evidence queue (the incident page asked for the zip): its alert's account builds it. */
export async function buildRequestedClaimPack(
  message: unknown,
  runtimeFor: (account: string) => Promise<EvidenceRuntime>,
): Promise<void> {
  const pack = claimPackJobSchema.parse(message);
  logger.appendKeys({ alertId: pack.alertId });
  const runtime = await runtimeFor(parseAlertId(pack.alertId).account);
  await buildClaimPackZip(pack, { ...runtime.claimPacks, observer: runtime.deps.observer });
}
