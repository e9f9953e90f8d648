import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SSTConfig } from "sst";
import { App } from "sst/constructs";
import { initProject, useProject } from "sst/project.js";
import { Stacks } from "sst/stacks/index.js";

export interface SynthOptions {
  stage: string;
  /** Runs on the app before it is synthesized: the place for aspects such as cdk-nag's checks. */
  beforeSynth?: (app: App) => void;
  /** Where the cloud assembly is written; a fresh temporary folder by default. */
  outdir?: string;
}

// A placeholder account: synthesis needs one, and nothing here talks to AWS.
const OFFLINE_ACCOUNT = "000000000000";

/**
 * Synthesizes the SST app to CloudFormation without AWS credentials or network. `sst build`
 * cannot do this (it always calls STS and looks up the CDK bootstrap stack); with NODE_ENV=test,
 * `App.finish()` skips that lookup. Functions are bundled by esbuild here, so a handler that does
 * not build fails synthesis.
 */
export async function synthesize(options: SynthOptions) {
  process.env.NODE_ENV = "test";
  process.env.SST_TELEMETRY_DISABLED = "1";
  process.env.AWS_EC2_METADATA_DISABLED = "true";
  await initProject({ stage: options.stage });
  const project = useProject();
  // initProject loads the config without its `stacks` (a shallow load); load it whole.
  const [, config] = (await Stacks.load(project.paths.config)) as readonly [unknown, SSTConfig];
  const outdir = options.outdir ?? (await mkdtemp(join(tmpdir(), "fleet-alerts-synth-")));
  const app = new App(
    {
      mode: "deploy",
      stage: project.config.stage,
      name: project.config.name,
      region: project.config.region ?? "eu-west-1",
      account: OFFLINE_ACCOUNT,
    },
    { outdir },
  );
  await config.stacks(app);
  options.beforeSynth?.(app);
  await app.finish();
  return { app, assembly: app.synth(), outdir };
}
