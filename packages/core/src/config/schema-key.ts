import * as z from "zod";

/**
 * The `"$schema"` key a configuration file may carry so that an editor validates and completes it
 * against its JSON Schema (schemas/*.schema.json, made by `npm run docs:configure`). The file
 * schemas are strict: without this key they would refuse the repository's own examples.
 */
export const schemaKeyField = {
  $schema: z
    .string()
    .optional()
    .describe("The JSON Schema file an editor checks this file against; fleet-alerts ignores it."),
};
