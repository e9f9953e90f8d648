import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const FOLDERS = [
  "packages/core/src",
  "packages/functions/src",
  "packages/local/src",
  "packages/simulator/src",
  "infra",
  "scripts",
];

/**
 * Whether a document a source file names is in the repository at `root`, beside the file or from
 * the root (`file` is from the root too). A place outside the repository never counts, even where
 * it exists on this machine: a clone has only the repository.
 */
function foundInRepository(root: string, file: string, document: string): boolean {
  return [resolve(root, dirname(file), document), resolve(root, document)].some(
    (place) => !relative(root, place).startsWith("..") && existsSync(place),
  );
}

describe("documents the code points to", () => {
  it("exist: every *.md a source file names is found in the repository, beside it or from the root", async () => {
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
          if (!foundInRepository(resolve("."), file, document)) missing.push(`${file}: ${document}`);
        }
      }
    }
    expect(named).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it("are looked for inside the repository only: a document beside the repository does not count", async () => {
    const beside = await mkdtemp(join(tmpdir(), "references-"));
    try {
      const root = join(beside, "repository");
      await mkdir(join(root, "docs"), { recursive: true });
      await mkdir(join(root, "src"));
      await writeFile(join(root, "docs", "inside.md"), "# Inside\n");
      await writeFile(join(root, "src", "notes.md"), "# Notes\n");
      await mkdir(join(beside, "shared"));
      await writeFile(join(beside, "shared", "outside.md"), "# Outside\n");
      expect(foundInRepository(root, "src/index.ts", "docs/inside.md")).toBe(true);
      expect(foundInRepository(root, "src/index.ts", "notes.md")).toBe(true);
      expect(foundInRepository(root, "src/index.ts", "../docs/inside.md")).toBe(true);
      expect(foundInRepository(root, "src/index.ts", "../shared/outside.md")).toBe(false);
      expect(foundInRepository(root, "src/index.ts", "../../shared/outside.md")).toBe(false);
      expect(foundInRepository(root, "src/index.ts", "docs/missing.md")).toBe(false);
    } finally {
      await rm(beside, { recursive: true, force: true });
    }
  });
});
