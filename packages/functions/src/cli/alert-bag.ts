import { stat } from "node:fs/promises";
import { join } from "node:path";
import { DynamoDBClient, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { NoSuchBucket, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AlertRecord } from "@fleet-alerts/core/alerts";
import {
  BAG_FILES,
  type BagSource,
  bagFolderName,
  manifestKey,
  openFolderBag,
  openS3Bag,
} from "@fleet-alerts/core/evidence";
import { CliError } from "./parse.js";

/** Why an alert's bag cannot be packed. */
export type NoBagReason = "unknown-alert" | "no-evidence" | "no-bag";

export class NoBagError extends CliError {
  constructor(
    readonly reason: NoBagReason,
    message: string,
  ) {
    super(message);
  }
}

/** The alert's bag in the local evidence folder: `<dir>/<bagFolderName(alertId)>/`. */
export async function localAlertBag(alertId: string, dir: string): Promise<BagSource> {
  const folder = join(dir, bagFolderName(alertId));
  await stat(folder).catch(() => {
    throw new NoBagError("no-bag", `no claim pack of alert ${alertId} in ${dir} (no folder ${folder})`);
  });
  return withBag(await openFolderBag(folder), alertId);
}

export interface Stage {
  table: string;
  bucket: string;
}

/**
 * The alert's bag in a stage's evidence bucket. The alert record says where its evidence is: the
 * folder of its evidence manifest, which is the bag's root.
 */
export async function stageAlertBag(
  alertId: string,
  stage: Stage,
  env: Readonly<Record<string, string | undefined>>,
): Promise<BagSource> {
  const record = await readAlert(alertId, stage.table, env);
  const prefix = evidencePrefixOf(alertId, record);
  // Loaded on use: the runtime brings Powertools and every AWS client along.
  const { awsClientConfig } = await import("../runtime.js");
  const config = awsClientConfig(env, "S3");
  // An emulator's endpoint is an IP address: path-style addressing, as S3 allows everywhere.
  const s3 = new S3Client({ ...config, forcePathStyle: "endpoint" in config });
  try {
    const source = await openS3Bag(s3, stage.bucket, prefix).catch((error: unknown) => {
      if (error instanceof NoSuchBucket) throw new CliError(`no bucket ${stage.bucket} (check --bucket)`);
      throw error;
    });
    return withBag({ ...source, close: async () => s3.destroy() }, alertId);
  } catch (error) {
    s3.destroy();
    throw error;
  }
}

/** `<account>:<serialno>:<rule>`; account ids hold no colon, serial numbers are digits. */
function parseAlertId(alertId: string): { account: string; serialno: bigint; ruleId: string } {
  const match = /^([^:]+):(\d+):(.+)$/.exec(alertId);
  if (!match?.[1] || !match[2] || !match[3])
    throw new CliError(`"${alertId}" is not an alert id: expected <account>:<serialno>:<rule>`);
  return { account: match[1], serialno: BigInt(match[2]), ruleId: match[3] };
}

async function readAlert(
  alertId: string,
  table: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<AlertRecord> {
  const { account, serialno, ruleId } = parseAlertId(alertId);
  const { awsClientConfig } = await import("../runtime.js");
  const { AlertStore } = await import("@fleet-alerts/core/alerts");
  const client = new DynamoDBClient(awsClientConfig(env, "DYNAMODB"));
  try {
    const record = await new AlertStore({ documents: DynamoDBDocumentClient.from(client), tableName: table })
      .get(account, serialno, ruleId)
      .catch((error: unknown) => {
        if (error instanceof ResourceNotFoundException)
          throw new CliError(`no table ${table} (check --table or TABLE_NAME, and the AWS region)`);
        throw error;
      });
    if (!record) throw new NoBagError("unknown-alert", `no alert ${alertId} in table ${table}`);
    return record;
  } finally {
    client.destroy();
  }
}

function evidencePrefixOf(alertId: string, record: AlertRecord): string {
  // Unavailable video is settled too: its bag holds the event, the track and the report saying why.
  if (record.evidenceStatus !== "stored" && record.evidenceStatus !== "unavailable")
    throw new NoBagError("no-evidence", `alert ${alertId} has no evidence stored: ${whyNotStored(record)}`);
  // The manifest's folder is the bag's root.
  const manifestName = manifestKey("");
  const manifest = record.evidenceKeys?.find((key) => key.endsWith(`/${manifestName}`));
  if (!manifest)
    throw new NoBagError(
      "no-evidence",
      record.evidenceStatus === "unavailable"
        ? `alert ${alertId} has no evidence: the recorders had no video of the event's window (it was given up before claim packs)`
        : `alert ${alertId}: its record lists no evidence manifest`,
    );
  return manifest.slice(0, -manifestName.length);
}

function whyNotStored(record: AlertRecord): string {
  switch (record.evidenceStatus) {
    case "pending":
      return "it is still being collected";
    case "failed":
      return "collecting it failed";
    default:
      return record.evidence ? "none has been asked for yet" : "its rule asks for none";
  }
}

/** Refuses evidence stored before claim packs: a folder of clips and a manifest, but no bag. */
async function withBag(source: BagSource, alertId: string): Promise<BagSource> {
  if (source.files.some(({ path }) => path === BAG_FILES.declaration)) return source;
  await source.close();
  throw new NoBagError(
    "no-bag",
    `the evidence of alert ${alertId} at ${source.location} has no bag (no ${BAG_FILES.declaration}): ` +
      "it was stored before claim packs, and can be copied but not packed",
  );
}
