import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
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

// What `npm ci` put on this machine: a platform package's folder names its os, cpu and, for
// rollup, its C library (`cli-linux-x64`, `rollup-linux-x64-gnu`, `linux-x64`); a lockfile entry
// without its `os`/`cpu` would bring every other platform's binary too.
const PLATFORM_SCOPES = ["@biomejs", "@rollup", "@esbuild"];
const PLATFORM_NAME =
  /(aix|android|darwin|freebsd|linux|netbsd|openbsd|openharmony|sunos|win32)-(arm64|arm|ia32|loong64|mips64el|ppc64|riscv64|s390x|x64)(?:-(gnu|musl|msvc))?/;

describe("node_modules", () => {
  it("holds only this machine's platform packages of biome, rollup and esbuild", async () => {
    const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
    const machineLibc = report.header?.glibcVersionRuntime ? "gnu" : "musl";
    const installed: string[] = [];
    for (const scope of PLATFORM_SCOPES) {
      const names = await readdir(join("node_modules", scope)).catch(() => [] as string[]);
      installed.push(...names.filter((name) => PLATFORM_NAME.test(name)).map((name) => `${scope}/${name}`));
    }
    expect(installed.length).toBeGreaterThanOrEqual(3);
    const foreign = installed.filter((name) => {
      const [, os, cpu, libc] = PLATFORM_NAME.exec(name) ?? [];
      return (
        os !== process.platform ||
        cpu !== process.arch ||
        (os === "linux" && libc !== undefined && libc !== machineLibc)
      );
    });
    expect(foreign).toEqual([]);
  });
});
