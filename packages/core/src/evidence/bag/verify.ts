import { checkPayloadManifest, checkTagManifest } from "./check-manifests.js";
import { checkDeclaration, checkLayout, checkPayloadOxum, payloadOxumOf } from "./check-tag-files.js";
import { checkTimestamp, type TimestampChecker, type TokenCheckOutcome } from "./check-timestamp.js";
import { type BagProblem, Inspection } from "./inspection.js";
import type { BagSource } from "./source.js";

export interface VerifyBagOptions {
  /** Checks the time-stamp token; without it, a bag that has one is reported as not fully verified. */
  timestamp?: TimestampChecker;
}

export interface BagSummary {
  /** What data/ actually holds (not what bag-info.txt says). */
  payloadFiles: number;
  payloadOctets: number;
  timestamp: TokenCheckOutcome;
}

export interface BagVerification {
  /** Every problem found, in the order of the checks; none means the bag is intact. */
  problems: BagProblem[];
  summary: BagSummary;
}

/**
 * Verifies a claim pack's bag as the verification profile says: its layout, bagit.txt, the
 * Payload-Oxum, both manifests and every hash they state, and the time-stamp token when there is
 * one. Every problem is reported, not only the first, so that one run tells all that is wrong.
 * Payload files are hashed as streams, one at a time.
 */
export async function verifyBag(source: BagSource, options: VerifyBagOptions = {}): Promise<BagVerification> {
  const inspection = new Inspection(source);
  checkLayout(inspection);
  await checkDeclaration(inspection);
  await checkPayloadOxum(inspection);
  await checkPayloadManifest(inspection);
  await checkTagManifest(inspection);
  const timestamp = await checkTimestamp(inspection, options.timestamp);
  const { octets, files } = payloadOxumOf(inspection);
  return {
    problems: inspection.problems,
    summary: { payloadFiles: files, payloadOctets: octets, timestamp },
  };
}
