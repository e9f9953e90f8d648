import * as z from "zod";
import { isMessageOfKind } from "./job.js";

/**
 * What starts a sweep of every account: a message on the evidence queue, sent by a schedule
 * (infra/evidence.ts) or by the local mode's clock. Told apart from evidence jobs by `kind`.
 */
export const parkedSweepMessageSchema = z.object({ kind: z.literal("parked-sweep"), version: z.literal(1) });
export type ParkedSweepMessage = z.output<typeof parkedSweepMessageSchema>;
export const PARKED_SWEEP_MESSAGE: ParkedSweepMessage = { kind: "parked-sweep", version: 1 };

export function isParkedSweepMessage(message: unknown): boolean {
  return isMessageOfKind(message, PARKED_SWEEP_MESSAGE.kind);
}

/** How often the sweep runs (infra/evidence.ts, the local mode): the most a missed Online event delays a job. */
export const PARKED_SWEEP_EVERY_MINUTES = 60;
