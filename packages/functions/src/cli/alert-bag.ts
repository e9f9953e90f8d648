import { stat } from "node:fs/promises";
import { join } from "node:path";
import { DynamoDBClient, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { NoSuchBucket, S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { AlertRecord } from "@fleet-alerts/core/alerts";
import { type BagSource, bagFolderName, openFolderBag, openS3Bag } from "@fleet-alerts/core/evidence";
import { parseAlertId } from "@fleet-alerts/core/share";
import { bagPrefixOf, NoBagError, withBag } from "../claim-pack/alert-bag.js";
import { CliError } from "./parse.js";

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
  const prefix = bagPrefixOf(alertId, record);
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
