import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** One Query or BatchGetItem answer as the client received it. */
export interface TableRead {
  command: string;
  /** The Limit asked for (Query), or the keys asked for (BatchGetItem). */
  asked: number | undefined;
  /** The items the answer held. */
  items: number;
  /** The attribute names found on any of them. */
  attributes: Set<string>;
}

/**
 * Records every Query and BatchGetItem answer `documents` receives (its real AWS SDK client, on the
 * emulator), so that a test can show how much one read brings in at most.
 */
export function recordTableReads(documents: DynamoDBDocumentClient): TableRead[] {
  const reads: TableRead[] = [];
  documents.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const input = args.input as {
        Limit?: number;
        RequestItems?: Record<string, { Keys?: unknown[] }>;
      };
      const output = result.output as {
        Items?: Record<string, unknown>[];
        Responses?: Record<string, Record<string, unknown>[]>;
      };
      const items = output.Items ?? Object.values(output.Responses ?? {}).flat();
      if (context.commandName === "QueryCommand" || context.commandName === "BatchGetItemCommand")
        reads.push({
          command: context.commandName,
          asked:
            context.commandName === "QueryCommand"
              ? input.Limit
              : Object.values(input.RequestItems ?? {}).reduce((sum, { Keys = [] }) => sum + Keys.length, 0),
          items: items.length,
          attributes: new Set(items.flatMap((item) => Object.keys(item))),
        });
      return result;
    },
    { step: "initialize", name: "recordTableReads" },
  );
  return reads;
}
