import * as z from "zod";

/**
 * Who asked for footage by hand, why and when (`fleet-alerts evidence request`): the alert record,
 * the evidence job and the custody record (manifest.json) carry it. A module of its own, importing
 * nothing of ours, because all three schemas read it.
 */
export const footageRequestSchema = z.object({
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: z.iso.datetime(),
});
export type FootageRequest = z.output<typeof footageRequestSchema>;
