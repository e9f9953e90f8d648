import { createWriteStream } from "node:fs";
import { access, rename, rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { BagSource } from "@fleet-alerts/core/evidence";
import { Command, Option } from "commander";
import { count, sizeText } from "./format.js";
import { CliError } from "./parse.js";

interface PackOptions {
  out: string;
  dir?: string;
  table?: string;
  bucket?: string;
}

/** `fleet-alerts evidence pack ALERT_ID --out claim.zip`: an alert's claim pack as one zip. */
export function evidencePackCommand(): Command {
  return new Command("pack")
    .description(
      "write an alert's claim pack (its evidence bag) as a zip, from a stage's evidence bucket " +
        "(AWS region, credentials and endpoint from the standard environment) or from the local evidence folder",
    )
    .argument("<alert-id>", "the alert: <account>:<serialno>:<rule>")
    .requiredOption("--out <file>", "the zip to write (it must not exist)")
    .option("--dir <folder>", "pack from this local evidence folder (such as .local/evidence), not a stage")
    .addOption(new Option("--table <name>", "the stage's table").env("TABLE_NAME"))
    .addOption(new Option("--bucket <name>", "the stage's evidence bucket").env("EVIDENCE_BUCKET"))
    .action(pack);
}

async function pack(alertId: string, options: PackOptions, command: Command): Promise<void> {
  if (await exists(options.out))
    throw new CliError(`${options.out} exists: choose another --out or remove it`);
  const source = await alertBag(alertId, options, command);
  try {
    const { bagFolderName } = await import("@fleet-alerts/core/evidence");
    await writeZip(source, bagFolderName(alertId), options.out);
  } finally {
    await source.close();
  }
  const bytes = source.files.reduce((sum, { size }) => sum + size, 0);
  console.log(
    `${options.out}: ${count(source.files.length, "file")}, ${sizeText(bytes)}, from ${source.location}`,
  );
}

async function alertBag(alertId: string, options: PackOptions, command: Command): Promise<BagSource> {
  // Loaded on use: finding a bag brings the AWS clients along, which other commands would pay for at start.
  const { localAlertBag, stageAlertBag } = await import("./alert-bag.js");
  if (options.dir !== undefined) {
    // Only what was typed conflicts: a shell may well have TABLE_NAME set for other commands.
    const typed = ["table", "bucket"].filter((name) => command.getOptionValueSource(name) === "cli");
    if (typed.length > 0)
      throw new CliError(
        `--dir packs from the local folder: leave out ${typed.map((name) => `--${name}`).join(" and ")}`,
      );
    return localAlertBag(alertId, options.dir);
  }
  if (options.table === undefined || options.bucket === undefined)
    throw new CliError(
      "say where the evidence is: --dir <folder> for the local evidence folder, or " +
        "--table and --bucket (TABLE_NAME, EVIDENCE_BUCKET) for a stage",
    );
  return stageAlertBag(alertId, { table: options.table, bucket: options.bucket }, process.env);
}

/** Streams the zip into `<out>.part` and renames it when complete: a partial zip is never taken for a claim pack. */
async function writeZip(source: BagSource, topFolder: string, out: string): Promise<void> {
  const { zipBag } = await import("../claim-pack/zip-writer.js");
  const part = `${out}.part`;
  try {
    await pipeline(zipBag(source, topFolder), createWriteStream(part));
    await rename(part, out);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
