import { spawnSync } from "node:child_process";
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
          NODE_OPTIONS: handlers.nodeOptions[handler] ?? "",
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
      bundleBytes: (await stat(bundle)).size,
      medianInitMs: Math.round(((times[Math.ceil(middle) - 1] ?? 0) + (times[Math.floor(middle)] ?? 0)) / 2),
    });
  }
  return results;
}
