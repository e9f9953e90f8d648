import { SetAsideStore, type StoredSetAside } from "@fleet-alerts/core/setaside";
import { LISTING_PAGE_MAX } from "@fleet-alerts/core/share";
import { Command, Option } from "commander";
import { accountOption, chosenAccount } from "./account.js";
import { formatTable, toJson } from "./format.js";
import { integerBetween } from "./parse.js";
import { onTable, tableOption } from "./table.js";

interface ListOptions {
  table: string;
  account: string;
  limit: number;
  json?: boolean;
}

/**
 * `fleet-alerts set-aside list`: the records of an account that AWS refused for good (an alert
 * record too large, a job SQS would not take), which the pipeline set aside so that the rest went
 * out; newest first, with why. Ops were told of each once; this is where they look them up.
 */
export function setAsideCommand(): Command {
  const setAside = new Command("set-aside").description(
    "records the pipeline set aside because AWS refused them for good (AWS region, credentials and endpoint from the standard environment)",
  );
  setAside
    .command("list")
    .description("list an account's set-aside records, newest serial first, with the step and AWS's reason")
    .addOption(tableOption())
    .addOption(accountOption())
    .addOption(
      new Option("--limit <count>", `at most this many (1 to ${LISTING_PAGE_MAX})`)
        .default(100)
        .argParser(integerBetween(1, LISTING_PAGE_MAX)),
    )
    .option("--json", "print a JSON document instead of a table")
    .hook("preAction", (_, action) => {
      action.setOptionValue("account", chosenAccount(action.opts<{ account?: string }>().account));
    })
    .action((options: ListOptions) =>
      onTable(options.table, async (table) => {
        const entries = await new SetAsideStore(table).list(options.account, options.limit);
        if (options.json) console.log(toJson(entries));
        else if (entries.length === 0) console.log(`account ${options.account}: nothing set aside`);
        else for (const line of formatTable(HEADER, entries.map(rowOf))) console.log(line);
      }),
    );
  return setAside;
}

const HEADER = ["SERIAL", "RULE", "STEP", "TARGET", "DEVICE", "SET ASIDE AT", "OPS TOLD", "REASON"];

function rowOf(entry: StoredSetAside): string[] {
  return [
    entry.serialno,
    entry.ruleId,
    entry.step,
    entry.targetId ?? "-",
    entry.deviceid,
    new Date(entry.setAsideAtMs).toISOString(),
    entry.toldAtMs === undefined ? "not yet" : new Date(entry.toldAtMs).toISOString(),
    entry.reason,
  ];
}
