import type { AlertRecord } from "../alerts/record.js";

/** What a due escalation job should do about its level, given the record as it stands now. */
export type EscalationDecision =
  /** The level went out (or a later one is claimed, which only follows it). */
  | { kind: "sent" }
  /** Acknowledged before this level was claimed: nothing more goes out. */
  | { kind: "cancel" }
  | { kind: "claim" }
  /** Claimed by a delivery that has not sent it and whose lease ran out: take the claim over. */
  | { kind: "take-over"; claimedAtMs: number }
  /** Claimed by a delivery that may still be sending it: look again when its lease runs out (wall clock). */
  | { kind: "wait"; untilMs: number };

/**
 * Decides from the record alone (pure): the caller acts with a conditional write and, if it loses,
 * decides again. `wallMs` and the lease are on the wall clock, as the claim time is.
 */
export function nextStep(
  record: AlertRecord,
  level: number,
  wallMs: number,
  leaseMs: number,
): EscalationDecision {
  if (record.escalationsSent >= level || record.escalatedLevels > level) return { kind: "sent" };
  if (record.acknowledgement) return { kind: "cancel" };
  if (record.escalatedLevels < level) return { kind: "claim" };
  const claimedAtMs = record.escalationClaimedAtMs ?? 0;
  return wallMs >= claimedAtMs + leaseMs
    ? { kind: "take-over", claimedAtMs }
    : { kind: "wait", untilMs: claimedAtMs + leaseMs };
}
