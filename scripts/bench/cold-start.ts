import { spawnSync } from "node:child_process";
import { readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { synthesize } from "../../infra/synth.js";

export interface HandlerColdStart {
  handler: string;
  bundleBytes: number;
  medianInitMs: number;
}

const HANDLERS = ["poll", "confirm", "evidence"] as const;

/**
 * Each handler exactly as a deployment ships it (the offline synth bundles it with the stack's own
 * settings), its size, and the median time a fresh Node process takes to import it: the module
 * initialisation a cold start adds before the first invocation.
 */
export async function measureColdStarts(runs = 10): Promise<HandlerColdStart[]> {
  const { outdir } = await synthesize({ stage: "bench" });
  try {
    return await measureEach(outdir, runs);
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

async function measureEach(outdir: string, runs: number): Promise<HandlerColdStart[]> {
  const results: HandlerColdStart[] = [];
  for (const handler of HANDLERS) {
    const bundle = await findBundle(outdir, handler);
    const probe = join(outdir, `${handler}-probe.mjs`);
    await writeFile(
      probe,
      `const start = process.hrtime.bigint(); await import(${JSON.stringify(bundle)}); console.log(Number(process.hrtime.bigint() - start) / 1e6);`,
    );
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const child = spawnSync(process.execPath, [probe], {
        encoding: "utf8",
        env: { ...process.env, AWS_REGION: "eu-west-1", POWERTOOLS_METRICS_DISABLED: "true" },
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

/** The synthesized asset that holds packages/functions/src/<handler>.mjs. */
async function findBundle(outdir: string, handler: string): Promise<string> {
  for (const entry of await readdir(outdir)) {
    if (!entry.startsWith("asset.")) continue;
    const candidate = join(outdir, entry, "packages/functions/src", `${handler}.mjs`);
    if (await stat(candidate).catch(() => undefined)) return candidate;
  }
  throw new Error(`no bundle of the ${handler} handler in ${outdir}`);
}
