import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const FOLDERS = [
  "packages/core/src",
  "packages/functions/src",
  "packages/local/src",
  "packages/simulator/src",
  "infra",
  "scripts",
];

describe("documents the code points to", () => {
  it("exist: every *.md a source file names is found beside it, at the repository root, or beside the repository (../shared)", async () => {
    const missing: string[] = [];
    let named = 0;
    for (const folder of FOLDERS) {
      const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries.filter(
        (candidate) => candidate.isFile() && candidate.name.endsWith(".ts"),
      )) {
        const file = join(entry.parentPath, entry.name);
        for (const [document] of (await readFile(file, "utf8")).matchAll(/[\w./-]+\.md\b/g)) {
          named++;
          const places = [join(dirname(file), document), document, join("..", document)];
          if (!places.some((place) => existsSync(place))) missing.push(`${file}: ${document}`);
        }
      }
    }
    expect(named).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
