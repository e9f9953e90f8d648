import { alertIdOf } from "@fleet-alerts/core/alerts";
import { AccessAudit, type AlertRef } from "@fleet-alerts/core/share";
import { Command } from "commander";
import { formatTable } from "./format.js";
import { parseAlertIdArgument } from "./parse.js";
import { onTable, tableOption } from "./table.js";

/** `fleet-alerts audit ALERT_ID`: every access to an alert through a share link, oldest first. */
export function auditCommand(): Command {
  return new Command("audit")
    .description(
      "list every access to ALERT_ID through its share links (time, token id, action, user agent) " +
        "from a stage's DynamoDB table (AWS region, credentials and endpoint from the standard environment)",
    )
    .argument("<alertId>", "the alert, <account>:<serialno>:<ruleId>", parseAlertIdArgument)
    .addOption(tableOption())
    .action(audit);
}

function audit(alert: AlertRef, options: { table: string }): Promise<void> {
  const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
  return onTable(options.table, async (table) => {
    const entries = await new AccessAudit(table).list(alertId);
    if (entries.length === 0) {
      console.log(`no accesses recorded for ${alertId}`);
      return;
    }
    const rows = entries.map((entry) => [
      new Date(entry.atMs).toISOString(),
      entry.tokenId,
      entry.action,
      // The visitor wrote it: quoted, so that it cannot pass for another column or line.
      JSON.stringify(entry.userAgent),
    ]);
    for (const line of formatTable(["TIME", "TOKEN ID", "ACTION", "USER AGENT"], rows)) console.log(line);
  });
}
