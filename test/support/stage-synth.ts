import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Aspects } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { inject } from "vitest";
import { synthesize } from "../../infra/synth.js";

export interface SynthesizedStage {
  /** The Pipeline stack's CloudFormation template. */
  template: { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
  /** cdk-nag's AwsSolutions errors: `<rule id>: <first line>`. */
  nagErrors: string[];
  /** The cloud assembly's folder, with the functions' bundles. */
  outdir: string;
}

/**
 * A stage's Pipeline stack as `npm run synth` makes it, with cdk-nag's AwsSolutions checks (they
 * only annotate), synthesized once per test run and shared by the infrastructure test files through
 * a file in this run's folder (synth-cache-setup.ts): each synth bundles every function, 10-20 s.
 * The files run one at a time, so the first to ask writes it whole before the next reads it.
 */
export async function synthesizedStage(stage: string): Promise<SynthesizedStage> {
  const cached = join(inject("synthCacheDir"), `${stage}.json`);
  if (existsSync(cached)) return JSON.parse(await readFile(cached, "utf8")) as SynthesizedStage;
  const { assembly, outdir } = await synthesize({
    stage,
    beforeSynth: (app) => Aspects.of(app).add(new AwsSolutionsChecks()),
  });
  const stack = assembly.getStackByName(`${stage}-fleet-alerts-Pipeline`);
  const synthesized: SynthesizedStage = {
    template: stack.template,
    nagErrors: stack.messages
      .filter((message) => message.level === "error")
      .map((message) => `${message.id}: ${String(message.entry.data).split("\n")[0]}`),
    outdir,
  };
  await writeFile(cached, JSON.stringify(synthesized));
  return synthesized;
}
