import { DynamoDBClient, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { TableRef } from "@fleet-alerts/core/store";
import { Option } from "commander";
import { CliError } from "./parse.js";

/** `--table`, the stage's table, from TABLE_NAME as a deployment shell has it. */
export function tableOption(): Option {
  return new Option("--table <name>", "the stage's table").env("TABLE_NAME").makeOptionMandatory();
}

/**
 * Runs `work` on the stage's table (or the local mode's, with its `env`); a table that is not there
 * is the operator's to fix, said plainly.
 */
export async function onTable<T>(
  tableName: string,
  work: (table: TableRef) => Promise<T>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<T> {
  // Loaded on use: the runtime brings the SNS and SQS clients and Powertools along, which every
  // other command would otherwise pay for at start.
  const { awsClientConfig } = await import("../runtime.js");
  const client = new DynamoDBClient(awsClientConfig(env, "DYNAMODB"));
  try {
    return await work({ documents: DynamoDBDocumentClient.from(client), tableName });
  } catch (error) {
    if (error instanceof ResourceNotFoundException)
      throw new CliError(`no table ${tableName} (check --table or TABLE_NAME, and the AWS region)`);
    throw error;
  } finally {
    client.destroy();
  }
}
