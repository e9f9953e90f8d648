import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every TypeScript source under `folder`, with its text. */
async function sources(folder: string): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(
    entries
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map(async (entry) => {
        const file = join(entry.parentPath, entry.name);
        return { file, text: await readFile(file, "utf8") };
      }),
  );
}

describe("where behaviour lives", () => {
  it("reads and writes the table only through core's stores: handlers, the CLI and local mode send no DynamoDB item commands", async () => {
    const outside = [...(await sources("packages/functions/src")), ...(await sources("packages/local/src"))];
    expect(outside.length).toBeGreaterThan(10);
    const offenders = outside
      .filter(({ text }) =>
        /import\s*\{[^}]*\b(Get|Put|Update|Delete|Query|BatchWrite)Command\b[^}]*\}\s*from\s*"@aws-sdk\/lib-dynamodb"/.test(
          text,
        ),
      )
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("takes the AWS limits it relies on from aws-limits.ts alone: no other code writes their values", async () => {
    const code = [
      ...(await sources("packages/core/src")),
      ...(await sources("packages/functions/src")),
      ...(await sources("packages/local/src")),
      ...(await sources("infra")),
    ].filter(({ file }) => !file.endsWith("aws-limits.ts"));
    // SQS's 900 s delay and 12 h visibility, 10-entry batches, DynamoDB's 25-item batch write, S3's 5 MiB part.
    const limit =
      /\b(900|43_?200)\b|\b(BATCH_SIZE|MAX_DELAY_SECONDS|MAX_VISIBILITY_SECONDS)\s*=|5 \* 1024 \* 1024/;
    const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    const offenders = code.filter(({ text }) => limit.test(withoutComments(text))).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
