import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** The table and the client every store shares. */
export interface TableRef {
  documents: DynamoDBDocumentClient;
  tableName: string;
}

/** Runs a conditional write; false when its condition did not hold (someone else got there first). */
export async function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
