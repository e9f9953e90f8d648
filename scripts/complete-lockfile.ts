/**
 * Adds lockfile entries for platform-specific optional dependencies that the registry reachable
 * here does not serve (it has the Linux builds of biome, rollup and esbuild, and answers 404 for the
 * others). npm then cannot record them, and `npm ci` refuses the lockfile as "Missing: ... from lock
 * file". An entry with only name, version and `optional` satisfies `npm ci`: on this platform the
 * package is skipped as a failed optional dependency; elsewhere npm fetches it by version.
 * Run after any dependency change: `npm run lockfile:complete`.
 */
import { readFile, writeFile } from "node:fs/promises";

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
}

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(await readFile(path, "utf8")) as { packages: Record<string, LockEntry> };
const added: string[] = [];
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm places an optional dependency beside its parent, or hoisted at the top.
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    lock.packages[hoisted] = { version, ...(entry.dev && { dev: true }), optional: true };
    added.push(`${name}@${version}`);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
await writeFile(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length === 0 ? "lockfile complete" : `added ${added.length} entries: ${added.join(", ")}`);
