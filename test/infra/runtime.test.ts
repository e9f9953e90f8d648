import { Stack } from "aws-cdk-lib";
import type { CfnFunction } from "aws-cdk-lib/aws-lambda";
import { type App, type FunctionProps, Function as SstFunction } from "sst/constructs";
import { beforeAll, describe, expect, it } from "vitest";
import { synthesize } from "../../infra/synth.js";

let app: App;
let resources: Record<string, { Type: string; Properties: { Runtime?: string } }>;

beforeAll(async () => {
  const synthesized = await synthesize({ stage: "test" });
  app = synthesized.app;
  resources = synthesized.assembly.getStackByName("test-fleet-alerts-Pipeline").template.Resources;
});

/** The runtime sst.config.ts gives every function by default: the last default that names one. */
function appDefaultRuntime(): string | undefined {
  const stack = app.node.children.find((child) => child instanceof Stack);
  const defaults = app.defaultFunctionProps.map((props) =>
    typeof props === "function" ? props(stack as never) : props,
  ) as FunctionProps[];
  return defaults.findLast((props) => props.runtime !== undefined)?.runtime;
}

describe("the Lambda runtime", () => {
  it("is set once, as the app's default, and every function of ours deploys with it", () => {
    const functions = app.node.findAll().filter((node) => node instanceof SstFunction);
    expect(functions.map((fn) => fn.node.id).sort()).toEqual([
      "Confirm",
      "Escalate",
      "Evidence",
      "Incident",
      // In every stage: without a groups file it sweeps set-aside notices owed to ops.
      "Notices",
      "Poller",
      "RecorderAudit",
      "Webhook",
    ]);
    const runtimes = functions.map((fn) => {
      const id = Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
      return resources[id]?.Properties.Runtime;
    });
    expect(runtimes).toEqual(functions.map(() => appDefaultRuntime()));
    expect(appDefaultRuntime()).toBe("nodejs24.x");
  });
});
