import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Stack } from "aws-cdk-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploysOwnBundles } from "../../infra/functions.js";

const run = promisify(execFile);
const WRAPPER = resolve("infra/runtime-wrapper.sh");
// Lambda's Node.js runtime at 512 MB (the evidence function): its flags, then its script, as its
// bootstrap runs them through AWS_LAMBDA_EXEC_WRAPPER.
const RUNTIME_FLAGS = [
  "--expose-gc",
  "--max-http-header-size",
  "81920",
  "--max-semi-space-size=25",
  "--max-old-space-size=461",
];

let folder: string;
let probe: string;

beforeAll(async () => {
  // A space in the script's path: the wrapper must pass every word through as it came.
  folder = await mkdtemp(join(tmpdir(), "runtime wrapper "));
  probe = join(folder, "probe.cjs");
  // Prints node's flags and the most the young generation grew to while short-lived objects churn.
  await writeFile(
    probe,
    `const v8 = require("node:v8");
let most = 0;
let kept = [];
for (let i = 0; i < 2e6; i++) {
  kept.push({ i, text: "x" + i });
  if (kept.length > 20000) kept = [];
  if (i % 10000 === 0) {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
    most = Math.max(most, young.space_size);
  }
}
console.log(JSON.stringify({ execArgv: process.execArgv, script: process.argv[1], youngMiB: most / 2 ** 20 }));`,
  );
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function startAsLambda(env: Record<string, string>) {
  const { stdout } = await run(WRAPPER, [process.execPath, ...RUNTIME_FLAGS, probe], {
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  return JSON.parse(stdout) as { execArgv: string[]; script: string; youngMiB: number };
}

describe("the runtime wrapper (AWS_LAMBDA_EXEC_WRAPPER)", () => {
  it("puts NODE_FLAGS_AFTER_RUNTIME after the runtime's flags, before its script, every word kept", async () => {
    const started = await startAsLambda({
      NODE_FLAGS_AFTER_RUNTIME: "--max-semi-space-size=1 --stack-trace-limit=5",
    });
    expect(started.execArgv).toEqual([...RUNTIME_FLAGS, "--max-semi-space-size=1", "--stack-trace-limit=5"]);
    expect(started.script).toBe(probe);
  });

  it("so a young generation set there holds, where the same flag in NODE_OPTIONS loses to the runtime's", async () => {
    const inNodeOptions = await startAsLambda({ NODE_OPTIONS: "--max-semi-space-size=1" });
    const afterRuntime = await startAsLambda({ NODE_FLAGS_AFTER_RUNTIME: "--max-semi-space-size=1" });
    // Semi-spaces of 1 MiB: two of them at most. The runtime's 25 MiB grew well past that.
    expect(afterRuntime.youngMiB).toBeLessThanOrEqual(2);
    expect(inNodeOptions.youngMiB).toBeGreaterThan(8);
  });

  it("starts the runtime's command unchanged when there is nothing to add", async () => {
    const started = await startAsLambda({});
    expect(started.execArgv).toEqual(RUNTIME_FLAGS);
    expect(started.script).toBe(probe);
  });
});

describe("the functions that name it", () => {
  // The stack as deploysOwnBundles reads it (an SST App's mode, an SST Stack's isActive): a
  // dev-mode synth would need SST's bootstrap stack in an AWS account.
  const stackIn = (mode: "deploy" | "dev" | "remove", isActive: boolean) =>
    ({ node: { root: { mode } }, isActive }) as unknown as Stack;

  it("name it only where their own bundle is deployed: not to sst dev's bridge, nor to a placeholder", () => {
    expect(deploysOwnBundles(stackIn("deploy", true))).toBe(true);
    expect(deploysOwnBundles(stackIn("dev", true))).toBe(false);
    expect(deploysOwnBundles(stackIn("deploy", false))).toBe(false);
    expect(deploysOwnBundles(stackIn("remove", false))).toBe(false);
  });
});
