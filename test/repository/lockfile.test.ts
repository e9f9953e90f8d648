import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  optional?: boolean;
}

// Packages published once per platform: a lockfile entry without `os`/`cpu` is installed on every
// machine (830 MB of other platforms' biome alone), which npm's own lockfile never does.
const PLATFORM_PACKAGE = /node_modules\/@(biomejs\/cli-|rollup\/rollup-|esbuild\/)[^/]+$/;

describe("the lockfile", () => {
  it("records every platform-specific package with its os and cpu, as npm writes it", async () => {
    const lock = JSON.parse(await readFile("package-lock.json", "utf8")) as {
      packages: Record<string, LockEntry>;
    };
    const platform = Object.entries(lock.packages).filter(([path]) => PLATFORM_PACKAGE.test(path));
    expect(platform.length).toBeGreaterThan(20);
    const incomplete = platform
      .filter(([, entry]) => !entry.os?.length || !entry.cpu?.length)
      .map(([path]) => path);
    expect(incomplete).toEqual([]);
  });
});
