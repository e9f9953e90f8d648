import { readAlertItem, updateAlertItem } from "../alerts/alert-item.js";
import type { Acknowledgement } from "../alerts/record.js";
import { conditionally, type TableRef } from "../store/dynamo.js";
import type { Acknowledgements, AcknowledgeOutcome, AlertKey } from "./ports.js";

/** Acknowledgements on the alert records in DynamoDB: written once, by a conditional update. */
export class AcknowledgementStore implements Acknowledgements {
  constructor(private readonly table: TableRef) {}

  async acknowledge(alert: AlertKey, acknowledgement: Acknowledgement): Promise<AcknowledgeOutcome> {
    const recorded = await conditionally(() =>
      updateAlertItem(this.table, alert, {
        UpdateExpression: "SET acknowledgement = :acknowledgement",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(acknowledgement)",
        // The document client refuses undefined values: absent fields are left out.
        ExpressionAttributeValues: { ":acknowledgement": JSON.parse(JSON.stringify(acknowledgement)) },
      }),
    );
    if (recorded) return { recorded: true };
    // An acknowledgement is never removed: the one that won is there to read.
    const existing = (await readAlertItem(this.table, alert))?.acknowledgement;
    if (!existing) throw new Error(`no alert record ${alert.account}:${alert.serialno}:${alert.ruleId}`);
    return { recorded: false, existing };
  }
}
