import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SOURCE_FOLDERS = [
  "packages/core/src",
  "packages/functions/src",
  "packages/local/src",
  "packages/simulator/src",
  "infra",
];
const HANDLERS = [
  "packages/functions/src/poll.ts",
  "packages/functions/src/confirm.ts",
  "packages/functions/src/evidence.ts",
  "packages/functions/src/notices.ts",
  "packages/functions/src/recorder-audit.ts",
];

async function lineCount(file: string): Promise<number> {
  return (await readFile(file, "utf8")).trimEnd().split("\n").length;
}

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

// One job per module: a file that outgrows these has taken on a second job (split along the job lines).
describe("module sizes", () => {
  it("no source file is over 300 lines", async () => {
    const files = (await Promise.all(SOURCE_FOLDERS.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(100);
    const over = [];
    for (const file of files) {
      const lines = await lineCount(file);
      if (lines > 300) over.push(`${file} (${lines} lines)`);
    }
    expect(over).toEqual([]);
  });

  it("every Lambda handler stays thin: 60 lines at most", async () => {
    for (const handler of HANDLERS) expect(await lineCount(handler), handler).toBeLessThanOrEqual(60);
  });

  it("the stack function composes builders in under 120 lines", async () => {
    const text = await readFile("infra/Pipeline.ts", "utf8");
    const start = text.indexOf("export async function Pipeline(");
    expect(start).toBeGreaterThan(-1);
    // The function ends at the first closing brace at the start of a line after it.
    const body = text.slice(start, text.indexOf("\n}\n", start) + 2);
    expect(body.split("\n").length).toBeLessThan(120);
  });
});
