import { type CursorItem, CursorStore } from "@fleet-alerts/core/cursor";
import { Command } from "commander";
import { accountOption, chosenAccount } from "./account.js";
import { CliError, parseSerial } from "./parse.js";
import { ask } from "./prompt.js";
import { onTable as onStageTable, tableOption } from "./table.js";

interface TableOptions {
  table: string;
  /** Resolved before the action (chosenAccount): required unless one account is configured. */
  account: string;
}

interface SetOptions extends TableOptions {
  yes?: boolean;
}

/** `fleet-alerts cursor ...`: where a deployed stage's poller has read the event log up to. */
export function cursorCommand(): Command {
  const cursor = new Command("cursor").description(
    "show or move an account's event cursor in a stage's DynamoDB table " +
      "(AWS region, credentials and endpoint from the standard environment)",
  );
  withTableOptions(cursor.command("show"))
    .description("print the serial number the poller has read up to")
    .action(show);
  withTableOptions(cursor.command("set"))
    .description(
      "move the cursor to SERIALNO, forward (skip events) or backward (read them again; events " +
        "already decided are not alerted twice)",
    )
    .argument("<serialno>", "the last serial number to count as read", parseSerial)
    .option("--yes", "do not ask for confirmation")
    .action(set);
  return cursor;
}

function withTableOptions(command: Command): Command {
  return command
    .addOption(tableOption())
    .addOption(accountOption())
    .hook("preAction", (_, action) => {
      action.setOptionValue("account", chosenAccount(action.opts<{ account?: string }>().account));
    });
}

/** The account's cursors on the stage's table. */
function onTable<T>(options: TableOptions, work: (cursors: CursorStore) => Promise<T>): Promise<T> {
  return onStageTable(options.table, (table) => work(new CursorStore(table)));
}

function show(options: TableOptions): Promise<void> {
  return onTable(options, async (cursors) => {
    const item = await cursors.readItem(options.account);
    console.log(
      item === undefined
        ? `account ${options.account}: no cursor yet (the first poll starts at the newest event)`
        : `account ${options.account}: ${describeCursor(item)}`,
    );
  });
}

function set(serialno: bigint, options: SetOptions): Promise<void> {
  return onTable(options, (cursors) => moveCursor(cursors, serialno, options));
}

async function moveCursor(cursors: CursorStore, serialno: bigint, options: SetOptions): Promise<void> {
  const current = await cursors.readItem(options.account);
  const from = current === undefined ? "no cursor" : describeCursor(current);
  console.error(`account ${options.account}: ${from}; moving it to ${serialno}`);
  if (!options.yes) await confirmSerial(serialno);
  // Not `advance`, which only moves forward as the poller must: an operator may move it back.
  if (!(await cursors.replace(options.account, current?.serialno, serialno, Date.now()))) {
    throw new CliError(
      "the cursor changed while you confirmed (a poller ran?): nothing written; run it again",
    );
  }
  const direction =
    current === undefined || serialno > current.serialno
      ? "events up to it will not be read"
      : serialno < current.serialno
        ? "events after it will be read again; those already decided are not alerted twice"
        : "unchanged";
  console.log(`account ${options.account}: cursor set to ${serialno} (${direction})`);
}

/** Asks the operator to type the serial again; refuses when nobody is at a terminal to answer. */
async function confirmSerial(serialno: bigint): Promise<void> {
  if (!process.stdin.isTTY)
    throw new CliError("refusing to move the cursor unconfirmed: stdin is not a terminal (pass --yes)");
  const answer = await ask(`Type the serial number again to confirm (${serialno}): `);
  if (answer !== serialno.toString()) throw new CliError("not confirmed: the cursor was not moved");
}

function describeCursor(item: CursorItem): string {
  return `cursor at ${item.serialno}${item.updatedAt ? ` (moved ${item.updatedAt})` : ""}`;
}
