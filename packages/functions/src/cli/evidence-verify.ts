import { readFile, stat } from "node:fs/promises";
import type { BagSource, BagSummary, TimestampChecker } from "@fleet-alerts/core/evidence";
import { Command } from "commander";
import { count, sizeText } from "./format.js";
import { CliError } from "./parse.js";

interface VerifyOptions {
  tsaCa?: string;
}

/** `fleet-alerts evidence verify PATH`: whether a claim pack is intact, every problem when it is not. */
export function evidenceVerifyCommand(): Command {
  return new Command("verify")
    .description(
      "check a claim pack, a bag folder or a zip made by `evidence pack`: its files, every hash, " +
        "Payload-Oxum and the time-stamp token when there is one; prints OK, or every problem and exits 1",
    )
    .argument("<path>", "the bag's folder, or its zip")
    .option("--tsa-ca <file>", "a CA certificate (PEM) the time-stamp token's signer must chain to")
    .action((path: string, options: VerifyOptions) => verify(path, options));
}

async function verify(path: string, options: VerifyOptions): Promise<void> {
  const timestamp = await timestampChecker(options);
  // Loaded on use: core's evidence module brings the S3 client along, which every other command
  // would otherwise pay for at start.
  const { encodeManifestPath, verifyBag } = await import("@fleet-alerts/core/evidence");
  const source = await openBag(path);
  const { problems, summary } = await verifyBag(source, { timestamp }).finally(() => source.close());
  if (problems.length === 0) {
    console.log(`OK: ${describe(summary)}`);
    return;
  }
  // `<kind>  <path>  <detail>`, the path as manifests write it, so that it stays on its line.
  for (const { kind, path: file, detail } of problems)
    console.log([kind, ...(file === undefined ? [] : [encodeManifestPath(file)]), detail].join("  "));
  throw new CliError(`${path}: ${count(problems.length, "problem")}: the claim pack is not intact`);
}

/** The RFC 3161 check of core's timestamp module, with the CA of `--tsa-ca` as the trust anchor when given. */
async function timestampChecker(options: VerifyOptions): Promise<TimestampChecker> {
  const trustedCaPem =
    options.tsaCa === undefined
      ? undefined
      : await readFile(options.tsaCa, "utf8").catch((error: Error) => {
          throw new CliError(`--tsa-ca: ${error.message}`);
        });
  const { verifyTimestampResponse } = await import("@fleet-alerts/core/evidence/timestamp");
  return (response, stampedData) =>
    verifyTimestampResponse(response, stampedData, { ...(trustedCaPem !== undefined && { trustedCaPem }) });
}

/** A folder is read as it is, anything else as a zip. */
async function openBag(path: string): Promise<BagSource> {
  const stats = await stat(path).catch(() => {
    throw new CliError(`${path}: no such file or folder`);
  });
  if (stats.isDirectory()) {
    const { openFolderBag } = await import("@fleet-alerts/core/evidence");
    return openFolderBag(path);
  }
  const { openZipBag } = await import("../claim-pack/zip-source.js");
  return openZipBag(path);
}

function describe(summary: BagSummary): string {
  const payload = `${count(summary.payloadFiles, "payload file")}, ${sizeText(summary.payloadOctets)}`;
  const { timestamp } = summary;
  if (timestamp.token === "absent") return `${payload}, no timestamp token`;
  if (timestamp.token === "checked" && timestamp.facts)
    return `${payload}, timestamp ${timestamp.facts.genTime} by ${timestamp.facts.tsaName}`;
  return `${payload}, timestamp token checked`;
}
