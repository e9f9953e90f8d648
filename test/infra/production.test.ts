import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { type SynthesizedStage, synthesizedStage } from "../support/stage-synth.js";

let stack: SynthesizedStage["template"];
let template: Template;
beforeAll(async () => {
  stack = (await synthesizedStage("production")).template;
  template = Template.fromJSON(stack as unknown as Record<string, unknown>);
});

const poller = () => {
  const found = Object.values(stack.Resources).find(
    (resource) =>
      resource.Type === "AWS::Lambda::Function" &&
      resource.Properties.Handler === "packages/functions/src/poll.handler",
  );
  if (!found) throw new Error("no poller in the production stack");
  return found.Properties as {
    Timeout: number;
    MemorySize: number;
    ReservedConcurrentExecutions: number;
    Environment: { Variables: object };
  };
};

describe("a production stage", () => {
  it("protects the table, retains data and locks evidence for the configured years", () => {
    template.hasResource("AWS::DynamoDB::Table", {
      Properties: { DeletionProtectionEnabled: true },
      DeletionPolicy: "Retain",
    });
    template.hasResourceProperties("AWS::S3::Bucket", {
      ObjectLockConfiguration: {
        ObjectLockEnabled: "Enabled",
        Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: 2555 } },
      },
    });
    template.hasResource("AWS::KMS::Key", { DeletionPolicy: "Retain" });
    // Without subscriptions configured, the topics exist and nobody is subscribed.
    template.resourceCountIs("AWS::SNS::Subscription", 0);
    // A production staging bucket is not emptied by a custom resource on removal.
    expect(JSON.stringify(stack)).not.toContain("Custom::S3AutoDeleteObjects");
  });

  // The latency mode npm run bench chose (section 3): the cheapest whose p95 was within 15 s, priced
  // at this memory (README "Latency modes"). A change here is a change of that table's row.
  it("polls every 15 seconds inside one run a minute, at the memory the bench priced", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 minute)",
      Targets: [Match.objectLike({ Input: JSON.stringify({ account: "fleet" }) })],
    });
    // The run lasts the minute: it polls at 0, 15, 30 and 45 s, and has the 10 s deadline margin
    // after the minute to finish a backlog's chunks (infra/stage-config.ts, pollerTimeoutSeconds).
    expect(poller()).toMatchObject({ Timeout: 70, MemorySize: 128, ReservedConcurrentExecutions: 2 });
    expect(poller().Environment.Variables).toMatchObject({ POLL_EVERY_SECONDS: "15" });
    expect(poller().Environment.Variables).not.toHaveProperty("DEADLINE_MARGIN_SECONDS");
  });
});
