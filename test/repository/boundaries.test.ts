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
});
