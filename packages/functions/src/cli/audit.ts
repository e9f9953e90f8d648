import { alertIdOf } from "@fleet-alerts/core/alerts";
import { AccessAudit, type AlertRef } from "@fleet-alerts/core/share";
import { Command } from "commander";
import { formatTable } from "./format.js";
import { type ListingPageOptions, listingPageOptions, nextPageLine } from "./listing-page.js";
import { parseAlertIdArgument } from "./parse.js";
import { onTable, tableOption } from "./table.js";

/**
 * `fleet-alerts audit ALERT_ID`: the accesses to an alert through its share links, oldest first, a
 * page at a time (a link opened for a year may have been read thousands of times).
 */
export function auditCommand(): Command {
  const command = new Command("audit")
    .description(
      "list the accesses to ALERT_ID through its share links (time, token id, action, user agent; " +
        "who asked for its footage and why), " +
        "oldest first, a page at a time, from a stage's DynamoDB table " +
        "(AWS region, credentials and endpoint from the standard environment)",
    )
    .argument("<alertId>", "the alert, <account>:<serialno>:<ruleId>", parseAlertIdArgument)
    .addOption(tableOption());
  for (const option of listingPageOptions()) command.addOption(option);
  return command.action(audit);
}

function audit(alert: AlertRef, options: ListingPageOptions & { table: string }): Promise<void> {
  const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
  return onTable(options.table, async (table) => {
    const page = await new AccessAudit(table).list(alertId, options);
    if (page.entries.length === 0) {
      console.log(`no accesses recorded for ${alertId}${options.after ? ` after ${options.after}` : ""}`);
      return;
    }
    const rows = page.entries.map((entry) => [
      new Date(entry.atMs).toISOString(),
      entry.tokenId,
      entry.action,
      // The visitor wrote it: quoted, so that it cannot pass for another column or line.
      JSON.stringify(entry.userAgent),
      // An operator's words (`evidence request`), quoted alike.
      entry.by === undefined ? "" : `${JSON.stringify(entry.by)}: ${JSON.stringify(entry.reason ?? "")}`,
    ]);
    for (const line of [
      ...formatTable(["TIME", "TOKEN ID", "ACTION", "USER AGENT", "REQUESTED BY: REASON"], rows),
      ...nextPageLine(page, `fleet-alerts audit ${alertId} --limit ${options.limit}`),
    ])
      console.log(line);
  });
}
