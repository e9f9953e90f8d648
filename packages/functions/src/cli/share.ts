import { AlertStore, alertIdOf } from "@fleet-alerts/core/alerts";
import { type AlertRef, SHARE_SCOPES, type ShareScope, ShareStore } from "@fleet-alerts/core/share";
import { Command, Option } from "commander";
import { formatTable } from "./format.js";
import { type ListingPageOptions, listingPageOptions, nextPageLine } from "./listing-page.js";
import { type LinkLifetimeOptions, linkLifetimeMs, linkLifetimeOptions, newLinkLines } from "./new-link.js";
import { CliError, parseAlertIdArgument } from "./parse.js";
import { onTable, tableOption } from "./table.js";

interface TableOptions {
  table: string;
}

interface CreateOptions extends TableOptions, LinkLifetimeOptions {
  scope: ShareScope;
  by: string;
  baseUrl: string;
}

/**
 * `fleet-alerts share ...`: links that open one alert's incident page to someone outside (an
 * insurer). The token is printed by `create` alone, once; nothing else here ever shows one.
 */
export function shareCommand(): Command {
  const share = new Command("share").description(
    "make, list and revoke an alert's share links in a stage's DynamoDB table " +
      "(AWS region, credentials and endpoint from the standard environment)",
  );
  const create = share
    .command("create")
    .description("make a link to ALERT_ID's incident page and print it (the only time it is shown)")
    .argument("<alertId>", "the alert, <account>:<serialno>:<ruleId>", parseAlertIdArgument)
    .addOption(tableOption())
    .addOption(
      new Option("--base-url <url>", "the incident pages' public address")
        .env("PUBLIC_BASE_URL")
        .makeOptionMandatory(),
    )
    .addOption(new Option("--scope <scope>", "what the link allows").choices(SHARE_SCOPES).default("view"))
    .addOption(
      new Option("--by <name>", "who shares it (recorded with the link)").env("USER").default("cli"),
    );
  for (const option of linkLifetimeOptions()) create.addOption(option);
  create.action(createLink);
  const listing = share
    .command("list")
    .description(
      "show ALERT_ID's live links (token ids, never the tokens), in token-id order, a page at a time",
    )
    .argument("<alertId>", "the alert, <account>:<serialno>:<ruleId>", parseAlertIdArgument)
    .addOption(tableOption());
  for (const option of listingPageOptions()) listing.addOption(option);
  listing.action(list);
  share
    .command("revoke")
    .description("end one of ALERT_ID's links at once")
    .argument("<alertId>", "the alert, <account>:<serialno>:<ruleId>", parseAlertIdArgument)
    .argument("<tokenId>", "the link's token id, as `share list` shows it")
    .addOption(tableOption())
    .action(revoke);
  return share;
}

function createLink(alert: AlertRef, options: CreateOptions): Promise<void> {
  const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
  const lifetimeMs = linkLifetimeMs(options);
  return onTable(options.table, async (table) => {
    // A link to nothing would only puzzle its receiver.
    if ((await new AlertStore(table).get(alert.account, alert.serialno, alert.ruleId)) === undefined)
      throw new CliError(`no alert ${alertId} in ${options.table}`);
    const nowMs = Date.now();
    const created = await new ShareStore(table).create(
      { ...alert, alertId, scope: options.scope, expiresAtMs: nowMs + lifetimeMs, createdBy: options.by },
      nowMs,
    );
    for (const line of newLinkLines(options.baseUrl, created, lifetimeMs, options.scope)) console.log(line);
  });
}

function list(alert: AlertRef, options: TableOptions & ListingPageOptions): Promise<void> {
  const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
  return onTable(options.table, async (table) => {
    const page = await new ShareStore(table).list(alertId, Date.now(), options);
    if (page.entries.length === 0) {
      console.log(`no live share links for ${alertId}${options.after ? ` after ${options.after}` : ""}`);
      return;
    }
    const rows = page.entries.map((link) => [
      link.tokenId,
      link.scope,
      new Date(link.expiresAtMs).toISOString(),
      link.createdBy,
      link.createdAt,
    ]);
    for (const line of [
      ...formatTable(["TOKEN ID", "SCOPE", "EXPIRES", "BY", "CREATED"], rows),
      ...nextPageLine(page, `fleet-alerts share list ${alertId} --limit ${options.limit}`),
    ])
      console.log(line);
  });
}

function revoke(alert: AlertRef, tokenId: string, options: TableOptions): Promise<void> {
  const alertId = alertIdOf(alert.account, alert.serialno, alert.ruleId);
  return onTable(options.table, async (table) => {
    if (!(await new ShareStore(table).revoke(alertId, tokenId)))
      throw new CliError(`${alertId} has no share link ${tokenId} (see share list)`);
    console.log(`revoked ${tokenId}: the link to ${alertId} no longer opens`);
  });
}
