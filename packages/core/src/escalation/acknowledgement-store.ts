import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type Acknowledgement, alertItemSchema } from "../alerts/record.js";
import { conditionally, getItem, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import type { Acknowledgements, AcknowledgeOutcome, AlertKey } from "./ports.js";

/** Acknowledgements on the alert records in DynamoDB: written once, by a conditional update. */
export class AcknowledgementStore implements Acknowledgements {
  constructor(private readonly table: TableRef) {}

  async acknowledge(alert: AlertKey, acknowledgement: Acknowledgement): Promise<AcknowledgeOutcome> {
    const pk = keys.account(alert.account);
    const sk = keys.alert(alert.serialno, alert.ruleId);
    const recorded = await conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk, sk },
          UpdateExpression: "SET acknowledgement = :acknowledgement",
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(acknowledgement)",
          // The document client refuses undefined values: absent fields are left out.
          ExpressionAttributeValues: { ":acknowledgement": JSON.parse(JSON.stringify(acknowledgement)) },
        }),
      ),
    );
    if (recorded) return { recorded: true };
    // An acknowledgement is never removed: the one that won is there to read.
    const Item = await getItem(this.table, pk, sk);
    const existing = Item && alertItemSchema.parse(Item).acknowledgement;
    if (!existing) throw new Error(`no alert record ${alert.account}:${alert.serialno}:${alert.ruleId}`);
    return { recorded: false, existing };
  }
}
