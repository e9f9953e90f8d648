import * as z from "zod";
import { isMessageOfKind } from "./job.js";

/**
 * The message that asks the evidence function for an alert's claim pack as one zip: the incident
 * page sends it when the zip is asked for and not there. A job of its own, beside the evidence job
 * on the same queue, told apart by `kind` (evidence jobs have none); versioned like them.
 */
export const claimPackJobSchema = z.object({
  kind: z.literal("claim-pack"),
  version: z.literal(1),
  alertId: z.string().min(1),
});
export type ClaimPackJob = z.output<typeof claimPackJobSchema>;

/** A queue message meant as a claim-pack job (then parsed by `claimPackJobSchema`, which names what is wrong). */
export function isClaimPackMessage(message: unknown): boolean {
  return isMessageOfKind(message, "claim-pack");
}

/** The staging bucket's folder of claim-pack zips; the functions' grants are limited to it (infra). */
export const CLAIM_PACK_ZIPS = "packs/";

/**
 * Where an alert's zip is kept: in the staging bucket, under `packs/` and the alert's evidence
 * prefix (from its own record, never from a request). The bucket's lifecycle removes it after a
 * day; a later download builds it again.
 */
export function claimPackZipKey(evidencePrefix: string): string {
  return `${CLAIM_PACK_ZIPS}${evidencePrefix}claim-pack.zip`;
}
