import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where this run's infrastructure test files share their synthesized stacks (stage-synth.ts). */
    synthCacheDir: string;
  }
}

/** A fresh folder per run: a stack synthesized by an earlier run (older code) is never read. */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-synth-cache-"));
  project.provide("synthCacheDir", folder);
  return () => rm(folder, { recursive: true, force: true });
}
