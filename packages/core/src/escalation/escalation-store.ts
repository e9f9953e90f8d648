import { readAlertItem, updateAlertItem } from "../alerts/alert-item.js";
import type { AlertRecord } from "../alerts/record.js";
import { conditionally, type TableRef } from "../store/dynamo.js";
import type { AlertKey, Escalations } from "./ports.js";

// Records written before escalation have none of its attributes: absent counts as level 0.
const UNACKNOWLEDGED = "attribute_exists(pk) AND attribute_not_exists(acknowledgement)";
const NOT_SENT = "(attribute_not_exists(escalationsSent) OR escalationsSent < :level)";

/**
 * The escalation state on the alert records in DynamoDB. Each method is one conditional update of
 * the record, so that the acknowledgement check and the claim are a single atomic step. Claim
 * times (`escalationClaimedAtMs`) are the wall clock's.
 */
export class EscalationStore implements Escalations {
  constructor(private readonly table: TableRef) {}

  get(alert: AlertKey): Promise<AlertRecord | undefined> {
    return readAlertItem(this.table, alert);
  }

  claimLevel(alert: AlertKey, level: number, atMs: number): Promise<boolean> {
    return this.#update(alert, {
      UpdateExpression: "SET escalatedLevels = :level, escalationClaimedAtMs = :now",
      ConditionExpression: `${UNACKNOWLEDGED} AND (attribute_not_exists(escalatedLevels) OR escalatedLevels < :level)`,
      ExpressionAttributeValues: { ":level": level, ":now": atMs },
    });
  }

  takeOverLevel(alert: AlertKey, level: number, claimedAtMs: number, atMs: number): Promise<boolean> {
    return this.#update(alert, {
      UpdateExpression: "SET escalationClaimedAtMs = :now",
      ConditionExpression: `${UNACKNOWLEDGED} AND escalatedLevels = :level AND escalationClaimedAtMs = :claimedAt AND ${NOT_SENT}`,
      ExpressionAttributeValues: { ":level": level, ":claimedAt": claimedAtMs, ":now": atMs },
    });
  }

  async markLevelSent(alert: AlertKey, level: number): Promise<void> {
    // False only when a later level is marked already: nothing to move forward then.
    await this.#update(alert, {
      UpdateExpression: "SET escalationsSent = :level",
      ConditionExpression: `attribute_exists(pk) AND ${NOT_SENT}`,
      ExpressionAttributeValues: { ":level": level },
    });
  }

  #update(alert: AlertKey, update: Parameters<typeof updateAlertItem>[2]): Promise<boolean> {
    return conditionally(() => updateAlertItem(this.table, alert, update));
  }
}
