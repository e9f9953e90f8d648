import { spawnSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { HANDLERS, type SynthesizedHandlers } from "./handlers.js";

export interface HandlerColdStart {
  handler: string;
  bundleBytes: number;
  medianInitMs: number;
}

/**
 * Each handler as deployed, its size, and the median time a fresh Node process (started with the
 * function's NODE_OPTIONS) takes to import it: the module initialisation a cold start adds before
 * the first invocation.
 */
export async function measureColdStarts(
  handlers: SynthesizedHandlers,
  runs = 10,
): Promise<HandlerColdStart[]> {
  const results: HandlerColdStart[] = [];
  for (const handler of HANDLERS) {
    const bundle = handlers.bundles[handler];
    const probe = join(handlers.folder, `${handler}-probe.mjs`);
    await writeFile(
      probe,
      `const start = process.hrtime.bigint(); await import(${JSON.stringify(bundle)}); console.log(Number(process.hrtime.bigint() - start) / 1e6);`,
    );
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const child = spawnSync(process.execPath, [probe], {
        encoding: "utf8",
        env: {
          ...process.env,
          AWS_REGION: "eu-west-1",
          POWERTOOLS_METRICS_DISABLED: "true",
          NODE_OPTIONS: handlers.startup[handler].nodeOptions ?? "",
        },
      });
      const milliseconds = Number(child.stdout.trim().split("\n").at(-1));
      if (child.status !== 0 || !Number.isFinite(milliseconds))
        throw new Error(`${handler} failed to load: ${child.stderr}`);
      times.push(milliseconds);
    }
    times.sort((a, b) => a - b);
    const middle = times.length / 2;
    results.push({
      handler,
      bundleBytes: await loadedAtInit(bundle),
      medianInitMs: Math.round(((times[Math.ceil(middle) - 1] ?? 0) + (times[Math.floor(middle)] ?? 0)) / 2),
    });
  }
  return results;
}

/**
 * The bytes a cold start loads: the handler's bundle and every chunk it imports statically, through
 * the chunks' own static imports. Bundles are split (infra/functions.ts), so code imported on use
 * (the AWS SDK's credential providers, the evidence function's RFC 3161 code) is in chunks of its
 * own that an `import(...)` loads when, and only when, it runs.
 */
async function loadedAtInit(bundle: string): Promise<number> {
  const seen = new Set<string>();
  const pending = [bundle];
  let bytes = 0;
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    bytes += (await stat(file)).size;
    const code = await readFile(file, "utf8");
    // Minified static imports: `import{a as b}from"./chunk-X.mjs"` and `import"./chunk-Y.mjs"`.
    for (const [, chunk] of code.matchAll(/(?:\bfrom|\bimport)\s*"(\.\/[^"]+\.mjs)"/g))
      pending.push(join(dirname(file), chunk as string));
  }
  return bytes;
}
