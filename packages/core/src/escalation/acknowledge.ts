import * as z from "zod";
import { type AlertRecord, acknowledgementSchema } from "../alerts/record.js";
import type { Observer } from "../observer.js";
import type { Acknowledgements, AcknowledgeOutcome } from "./ports.js";

/** An acknowledgement as a person gives it: a name, perhaps a note, through a link or not. */
export const newAcknowledgementSchema = acknowledgementSchema.extend({
  by: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  note: z.string().trim().max(1000, "must be at most 1000 characters").optional(),
});
export type NewAcknowledgement = z.input<typeof newAcknowledgementSchema>;

export interface AcknowledgeDependencies {
  acknowledgements: Acknowledgements;
  observer: Observer;
}

/**
 * Acknowledges an alert: the first acknowledgement is recorded (a conditional write), and stops the
 * escalation levels not sent yet, as each job checks it when it comes due. A second one is not
 * recorded; it is told who came first. Throws a ZodError for an invalid acknowledgement.
 */
export async function acknowledge(
  alert: Pick<AlertRecord, "account" | "serialno" | "ruleId" | "alertId" | "deviceid">,
  acknowledgement: NewAcknowledgement,
  deps: AcknowledgeDependencies,
): Promise<AcknowledgeOutcome> {
  const valid = newAcknowledgementSchema.parse(acknowledgement);
  const outcome = await deps.acknowledgements.acknowledge(alert, valid);
  if (outcome.recorded) {
    deps.observer.observe({
      type: "alert-acknowledged",
      account: alert.account,
      alertId: alert.alertId,
      serialno: alert.serialno.toString(),
      rule: alert.ruleId,
      deviceid: alert.deviceid,
      at: new Date(valid.atMs).toISOString(),
      ...(valid.tokenId !== undefined && { tokenId: valid.tokenId }),
    });
  }
  return outcome;
}
