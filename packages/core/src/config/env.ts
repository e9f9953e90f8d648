import * as z from "zod";
import { toValidationIssues } from "../devicecloud/errors.js";

/** A configuration that cannot run: names every variable at fault, never its value. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment with a zod schema, once, into typed settings. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Readonly<Record<string, string | undefined>>,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      toValidationIssues(parsed.error.issues).map((issue) =>
        issue.message.includes("received undefined")
          ? `${issue.path}: missing`
          : `${issue.path}: ${issue.message}`,
      ),
    );
  }
  return parsed.data;
}

/** A JSON document in an environment variable, parsed before its schema applies. */
export function jsonEnv<S extends z.ZodType>(schema: S) {
  return z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "is not valid JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);
}
