import { WebhookDeliveryStore } from "@fleet-alerts/core/webhooks";
import { Command } from "commander";
import { onTable, tableOption } from "./table.js";

/** `fleet-alerts target ...`: the webhook, Slack and Teams targets' state in a stage's table. */
export function targetCommand(): Command {
  const target = new Command("target").description(
    "show or change a webhook, Slack or Teams target's state (AWS region, credentials and endpoint from the standard environment)",
  );
  target
    .command("show")
    .description("say whether the target is enabled, or when and why it was disabled")
    .argument("<id>", "the target's name in the groups file")
    .addOption(tableOption())
    .action((id: string, options: { table: string }) =>
      onTable(options.table, async (table) => {
        const state = await new WebhookDeliveryStore(table).targetState(id);
        console.log(
          state
            ? `target ${id}: disabled since ${new Date(state.disabledAtMs).toISOString()} (${state.reason})`
            : `target ${id}: enabled`,
        );
      }),
    );
  target
    .command("enable")
    .description(
      "enable a target disabled after it answered 410 Gone (fix its URL first: npx sst secrets set TARGET_<ID>_URL …); " +
        "its jobs dropped while disabled are not sent again",
    )
    .argument("<id>", "the target's name in the groups file")
    .addOption(tableOption())
    .action((id: string, options: { table: string }) =>
      onTable(options.table, async (table) => {
        const enabled = await new WebhookDeliveryStore(table).enableTarget(id);
        console.log(enabled ? `target ${id}: enabled` : `target ${id}: was not disabled`);
      }),
    );
  return target;
}
