import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionally, type TableRef } from "../store/dynamo.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import type { SmsCaps } from "./groups-schema.js";
import { type HeldItem, type RoutedItem, SMS_HOUR_TTL_DAYS } from "./items.js";
import type { RoutableAlert } from "./match.js";
import type { RoutingItemStore, SmsCapStore } from "./route-alert.js";

/** The held and routed items in the table; the first write of an item stays (a replay's is dropped). */
export class DynamoRoutingItemStore implements RoutingItemStore {
  constructor(private readonly table: TableRef) {}

  async put(items: readonly (HeldItem | RoutedItem)[]): Promise<void> {
    await Promise.all(
      items.map((item) =>
        conditionally(() =>
          this.table.documents.send(
            new PutCommand({
              TableName: this.table.tableName,
              Item: item,
              ConditionExpression: "attribute_not_exists(pk)",
            }),
          ),
        ),
      ),
    );
  }
}

/**
 * SMS caps in the table: an hour's item per recipient and per device holds string sets of alert
 * ids, `texted` and `capped` (items.ts). An alert is texted when it adds itself to the device's
 * set and then to each recipient's, each conditional on the set being below its cap or already
 * holding the alert: the condition and the ADD are one atomic update, so concurrent pollers cannot
 * both take the last place, and asking again for the same alert gives the same answer.
 */
export class DynamoSmsCapStore implements SmsCapStore {
  constructor(
    private readonly table: TableRef,
    private readonly caps: SmsCaps,
  ) {}

  async count(
    alert: RoutableAlert,
    recipients: readonly string[],
    hourIso: string,
  ): Promise<{ texted: string[]; capped: string[] }> {
    const expiresAt = expiresAfterDays(Date.parse(hourIso) + 3_600_000, SMS_HOUR_TTL_DAYS);
    const device = {
      key: { pk: keys.account(alert.account), sk: keys.deviceSmsHour(hourIso, alert.deviceid) },
      fields: { hour: hourIso, account: alert.account, deviceid: alert.deviceid, expiresAt },
    };
    const recipientItem = (recipientId: string) => ({
      key: { pk: keys.recipient(recipientId), sk: keys.smsHour(hourIso) },
      fields: { hour: hourIso, recipientId, expiresAt },
    });
    if (!(await this.#take(device, alert.alertId, this.caps.perDevicePerHour))) {
      await this.#markCapped(device, alert.alertId);
      await Promise.all(
        recipients.map((recipient) => this.#markCapped(recipientItem(recipient), alert.alertId)),
      );
      return { texted: [], capped: [...recipients] };
    }
    const taken = await Promise.all(
      recipients.map(async (recipient) => {
        const item = recipientItem(recipient);
        const ok = await this.#take(item, alert.alertId, this.caps.perRecipientPerHour);
        if (!ok) await this.#markCapped(item, alert.alertId);
        return { recipient, ok };
      }),
    );
    return {
      texted: taken.filter(({ ok }) => ok).map(({ recipient }) => recipient),
      capped: taken.filter(({ ok }) => !ok).map(({ recipient }) => recipient),
    };
  }

  /** Adds the alert to the item's `texted` set if it is there already or the set has room. */
  #take(item: HourItem, alertId: string, cap: number): Promise<boolean> {
    return conditionally(() =>
      this.#update(item, "ADD texted :ids", {
        ConditionExpression: "attribute_not_exists(texted) OR contains(texted, :id) OR size(texted) < :cap",
        values: { ":id": alertId, ":cap": cap },
        alertId,
      }),
    );
  }

  async #markCapped(item: HourItem, alertId: string): Promise<void> {
    await this.#update(item, "ADD capped :ids", { values: {}, alertId });
  }

  #update(
    item: HourItem,
    add: string,
    options: { ConditionExpression?: string; values: Record<string, unknown>; alertId: string },
  ) {
    const names = Object.keys(item.fields);
    return this.table.documents.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: item.key,
        // HOUR is a reserved word: every field goes by a name placeholder.
        UpdateExpression: `${add} SET ${names.map((name) => `#${name} = :${name}`).join(", ")}`,
        ...(options.ConditionExpression && { ConditionExpression: options.ConditionExpression }),
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: {
          ":ids": new Set([options.alertId]),
          ...Object.fromEntries(
            names.map((name) => [`:${name}`, item.fields[name as keyof typeof item.fields]]),
          ),
          ...options.values,
        },
      }),
    );
  }
}

interface HourItem {
  key: { pk: string; sk: string };
  fields: Record<string, string | number>;
}
