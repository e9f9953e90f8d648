import { spawnSync } from "node:child_process";
import { mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

export interface HandlerColdStart {
  handler: string;
  bundleBytes: number;
  medianInitMs: number;
}

// The same esbuild settings SST uses for the functions (infra/Pipeline.ts): ESM, minified.
const HANDLERS = ["poll", "confirm", "evidence"] as const;

/**
 * Each handler bundled as Lambda gets it, its size, and the median time a fresh Node process takes
 * to import it (module initialisation: what a cold start adds before the first invocation).
 */
export async function measureColdStarts(runs = 10): Promise<HandlerColdStart[]> {
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-bench-"));
  const results: HandlerColdStart[] = [];
  for (const handler of HANDLERS) {
    const outfile = join(folder, `${handler}.mjs`);
    await build({
      entryPoints: [`packages/functions/src/${handler}.ts`],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "node",
      target: "node20",
      outfile,
      // Lambda's Node.js runtime brings no AWS SDK v3 that matches ours exactly: bundle it all.
      banner: {
        js: "import { createRequire as topLevelCreateRequire } from 'module';const require = topLevelCreateRequire(import.meta.url);",
      },
      logLevel: "silent",
    });
    const probe = join(folder, `${handler}-probe.mjs`);
    await writeFile(
      probe,
      `const start = process.hrtime.bigint(); await import(${JSON.stringify(outfile)}); console.log(Number(process.hrtime.bigint() - start) / 1e6);`,
    );
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const child = spawnSync(process.execPath, [probe], {
        encoding: "utf8",
        env: { ...process.env, AWS_REGION: "eu-west-1", POWERTOOLS_METRICS_DISABLED: "true" },
      });
      times.push(Number(child.stdout.trim().split("\n").at(-1)));
    }
    times.sort((a, b) => a - b);
    results.push({
      handler,
      bundleBytes: (await stat(outfile)).size,
      medianInitMs: Math.round(((times[4] ?? 0) + (times[5] ?? 0)) / 2),
    });
  }
  return results;
}
